import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const BUILT_CLI = resolve('dist/src/cli/main.js');
const running = new Set<ChildProcess>();

/** Runs the built CLI with no service configured by the environment; killed by PID after 60 s. */
export function runCli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      cwd,
      env: { ...process.env, BAILIFF_API_URL: '', BAILIFF_API_KEY: '' },
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      done({ code, stdout, stderr });
    });
  });
}

/** Kills (by PID) every CLI a test started that is still running: for an afterAll. */
export function killRunningClis(): void {
  for (const child of running) if (child.pid) process.kill(child.pid, 'SIGKILL');
}
