import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The built CLI, found from test/ or dist/test/. */
function builtCli(): string {
  let directory = import.meta.dirname;
  for (let depth = 0; depth < 6; depth += 1) {
    if (existsSync(join(directory, 'plugin.yml'))) return join(directory, 'dist', 'src', 'cli', 'main.js');
    directory = dirname(directory);
  }
  throw new Error('plugin.yml not found above the service test helpers');
}

export const BUILT_CLI = builtCli();
const STARTUP_TIMEOUT_MS = 30_000;

/** A `bailiff service` process (the built CLI) and what it printed. */
export interface ServiceCliProcess {
  /** `http://HOST:PORT` from its listening line. */
  url: string;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when a signal ended it) once the process exits. */
  exited: Promise<number | null>;
  /** Sends a signal by PID. */
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL unless it already exited; resolves once it has. */
  kill(): Promise<void>;
}

function outputOf(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

/**
 * `node dist/src/cli/main.js service ARGS` with `env` added to this process's environment; resolves
 * once it printed its listening line (and, with `--metrics-port`, its metrics line).
 */
export async function startServiceCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceCliProcess> {
  const child = spawn(process.execPath, [BUILT_CLI, 'service', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const output = outputOf(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    await exited;
  };
  const waitsForMetrics = args.includes('--metrics-port');
  const isReady = () =>
    /listening on \S+\n/.test(output.stdout()) && (!waitsForMetrics || /metrics: \S+\n/.test(output.stdout()));
  for (let waitedMs = 0; !isReady(); waitedMs += 50) {
    if (waitedMs > STARTUP_TIMEOUT_MS || child.exitCode !== null) {
      await kill();
      throw new Error(`bailiff service did not start: ${output.stdout()} ${output.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: /listening on (\S+)\n/.exec(output.stdout())![1]!,
    pid: child.pid!,
    ...output,
    exited,
    signal: (signal) => process.kill(child.pid!, signal),
    kill,
  };
}

/** A one-shot `bailiff service ...` command (built CLI): its exit code and output; `stdin` is written then closed. */
export function runServiceCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BUILT_CLI, 'service', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const output = outputOf(child);
  child.stdin!.end(stdin);
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout: output.stdout(), stderr: output.stderr() })),
  );
}
