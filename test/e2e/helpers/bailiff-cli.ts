import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from './game-server.js';

const CLI = join(REPOSITORY_ROOT, 'dist', 'src', 'cli', 'main.js');

/** Counts of `bailiff outbox status`. */
export interface OutboxCounts {
  pending: number;
  inFlight: number;
  dead: number;
}

/** Runs the built `bailiff` command to its end (at most `timeoutMs`) and resolves with its output. */
export function runBailiff(args: string[], timeoutMs = 15_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: REPOSITORY_ROOT, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** `bailiff outbox status --db PATH` and `outbox dead`, read from the plugin's database after a stop. */
export async function outboxAfterStop(dbPath: string): Promise<{ counts: OutboxCounts; text: string }> {
  const status = await runBailiff(['outbox', 'status', '--db', dbPath]);
  const dead = await runBailiff(['outbox', 'dead', '--db', dbPath]);
  const count = (label: string) =>
    Number(new RegExp(`^${label}:\\s+(\\d+)$`, 'm').exec(status.output)?.[1] ?? Number.NaN);
  return {
    counts: { pending: count('pending'), inFlight: count('in flight'), dead: count('dead') },
    text: `${status.output}${dead.output}`,
  };
}

/**
 * `bailiff start --dir DIR` expected to exit on its own: resolves with its exit code and output,
 * or with `code: 'still running'` after `timeoutMs`, when it is killed (by PID).
 */
export async function startExpectingExit(
  dir: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 20_000,
): Promise<{ code: number | null | 'still running'; output: string }> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'start', '--dir', dir], {
    cwd: REPOSITORY_ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = once(child, 'exit') as Promise<[number | null]>;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'still running'>((resolve) => {
    timer = setTimeout(() => resolve('still running'), timeoutMs);
  });
  const outcome = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (outcome === 'still running') {
    process.kill(child.pid!, 'SIGKILL');
    await exited;
    return { code: 'still running', output };
  }
  return { code: outcome[0], output };
}
