import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServiceSeed } from '../../../src/service/index.js';

/** The built CLI, found from test/ or dist/test/ (the benchmarks run the compiled helpers). */
function builtCli(): string {
  let directory = import.meta.dirname;
  for (let depth = 0; depth < 6; depth += 1) {
    if (existsSync(join(directory, 'plugin.yml'))) return join(directory, 'dist', 'src', 'cli', 'main.js');
    directory = dirname(directory);
  }
  throw new Error('plugin.yml not found above the service test helpers');
}

const MAIN = builtCli();
const STARTUP_TIMEOUT_MS = 15_000;

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Resident memory of the service process in bytes (Linux: /proc). */
  rssBytes(): number;
  /** Kills the process (SIGKILL) and waits for it to exit. */
  kill(): Promise<void>;
}

/**
 * The built `bailiff service` in a child process on a free loopback port, with `seed` and
 * `adminToken`; its TMPDIR (where uploads go) is `tmpDirectory`.
 */
export async function startServiceProcess(options: {
  seed: ServiceSeed;
  adminToken: string;
  tmpDirectory: string;
  /** More `bailiff service` flags. */
  args?: string[];
}): Promise<ServiceProcess> {
  const seedPath = join(options.tmpDirectory, 'seed.json');
  writeFileSync(seedPath, JSON.stringify(options.seed));
  const args = [
    MAIN,
    'service',
    '--port',
    '0',
    '--seed',
    seedPath,
    '--admin-token',
    options.adminToken,
    ...(options.args ?? []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: options.tmpDirectory },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  let stdout = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.resume();
  for (let waitedMs = 0; !/listening on (\S+)\n/.test(stdout); waitedMs += 50) {
    if (waitedMs > STARTUP_TIMEOUT_MS || child.exitCode !== null) {
      await kill();
      throw new Error(`the service process did not start: ${stdout}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pid = child.pid!;
  return {
    url: /listening on (\S+)\n/.exec(stdout)![1]!,
    pid,
    rssBytes: () => {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
    },
    kill,
  };
}
