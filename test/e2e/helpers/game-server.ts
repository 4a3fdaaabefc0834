import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { LOOPBACK_TEST_SETTINGS } from '../../../src/hosts/server-settings.js';
import { waitFor } from './wait.js';

/** The repository root (holds plugin.yml), from test/ or dist/test/. */
function findRepositoryRoot(): string {
  let directory = import.meta.dirname;
  for (let depth = 0; depth < 6; depth += 1) {
    if (existsSync(join(directory, 'plugin.yml'))) return directory;
    directory = dirname(directory);
  }
  throw new Error('plugin.yml not found above the e2e helpers');
}

export const REPOSITORY_ROOT = findRepositoryRoot();
const CLI = join(REPOSITORY_ROOT, 'dist', 'src', 'cli', 'main.js');

/** Test settings of a Bedrock (SerenityJS) server: the loopback ones with an empty world. */
export const BEDROCK_TEST_SETTINGS = { edition: 'bedrock', generation: 'void' } as const;

/**
 * Fast, local game server settings: loopback, free port, offline mode, small in-memory world;
 * `serverSettings` adds or overrides keys (e.g. {@link BEDROCK_TEST_SETTINGS}).
 */
export function writeTestServerFolder(
  dir: string,
  bailiffConfig?: Record<string, unknown>,
  serverSettings: Record<string, unknown> = {},
): void {
  mkdirSync(join(dir, 'plugin-data', 'Bailiff'), { recursive: true });
  writeFileSync(join(dir, 'server.yml'), stringify({ ...LOOPBACK_TEST_SETTINGS, ...serverSettings }));
  if (bailiffConfig) writeFileSync(join(dir, 'plugin-data', 'Bailiff', 'config.yml'), stringify(bailiffConfig));
}

export interface RunningGameServer {
  port: number;
  pid: number;
  output(): string;
  /** Types a console command (e.g. `bailiff reload`). */
  console(line: string): void;
  /** Sends `signal` (SIGKILL after 8 s) and resolves to the exit code; null when it was already gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves to the exit code once the process exits by itself (SIGKILL after `timeoutMs`). */
  exited(timeoutMs?: number): Promise<number | null>;
}

/** `bailiff start --dir DIR` (built) as a child process; resolves once it prints the listening line. */
export async function startGameServerProcess(
  dir: string,
  env: Record<string, string> = {},
): Promise<RunningGameServer> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'start', '--dir', dir], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let exited = false;
  const exitCode = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  const exitedByItself = async (timeoutMs = 20_000): Promise<number | null> => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const code = await exitCode;
    clearTimeout(timer);
    return code;
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> => {
    if (exited) return null;
    const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    process.kill(child.pid!, signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
    const [code] = await exit;
    clearTimeout(timer);
    return code;
  };
  try {
    const port = await waitFor(
      'the game server to listen',
      () => {
        if (exited) throw new Error(`bailiff start exited:\n${output}`);
        const match = /^game server listening on [\d.]+:(\d+)$/m.exec(output);
        return match ? Number(match[1]) : undefined;
      },
      45_000,
    );
    const typeCommand = (line: string) => {
      child.stdin!.write(`${line}\n`);
    };
    return { port, pid: child.pid!, output: () => output, console: typeCommand, stop, exited: exitedByItself };
  } catch (error) {
    await stop();
    throw error;
  }
}
