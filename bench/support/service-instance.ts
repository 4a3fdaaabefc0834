import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export interface Instance {
  child: ChildProcess;
  url: URL;
}

/** `bailiff service --database-url` in its own process, as an operator runs it. */
export function startInstance(databaseUrl: string, rateLimitPerMinute: number): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [CLI, 'service', '--port', '0', '--rate-limit-per-minute', String(rateLimitPerMinute)],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BAILIFF_DATABASE_URL: databaseUrl } },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bailiff service did not start within ${START_TIMEOUT_MS} ms: ${output}`));
    }, START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      resolve({ child, url: new URL(listening[1]!) });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bailiff service exited with ${code} before it listened: ${output}`));
    });
  });
}

/** Stops it as an operator would (SIGTERM), killing it if it has not exited within 10 s. */
export async function stopInstance({ child }: Instance): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
