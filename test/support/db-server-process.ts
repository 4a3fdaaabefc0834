import { rmSync } from 'node:fs';
import { createServer } from 'node:net';

/** What the tests' database servers (PostgreSQL, MariaDB) share about their process and port. */

/** A TCP port on 127.0.0.1 that was free when asked. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(address)));
    });
  });
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` exited within `waitMs`. */
export async function waitForExit(pid: number, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 25));
  return !isRunning(pid);
}

/** Sends `signal` to the server, kills it when it has not exited within `waitMs`, and removes its directory. */
export async function stopServerProcess(
  server: { pid: number; rootDir: string },
  signal: NodeJS.Signals,
  waitMs: number,
): Promise<void> {
  if (isRunning(server.pid)) {
    process.kill(server.pid, signal);
    if (!(await waitForExit(server.pid, waitMs))) process.kill(server.pid, 'SIGKILL');
  }
  rmSync(server.rootDir, { recursive: true, force: true });
}
