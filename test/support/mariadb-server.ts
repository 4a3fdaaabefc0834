import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopServerProcess } from './db-server-process.js';

/**
 * One throwaway MariaDB server for tests and benches: Debian's `mariadb-server` binaries, a data
 * directory in a temp dir, listening on 127.0.0.1 at a free port, no grant tables (any user and
 * password is let in). As root (CI) it runs as the `mysql` user, since mariadbd refuses root.
 */
export interface MariaDbServer {
  /** `mysql://root@127.0.0.1:PORT/` (no database chosen). */
  url: string;
  port: number;
  pid: number;
  /** Holds the data directory, the socket and the log; removed by {@link stopMariaDbServer}. */
  rootDir: string;
}

const START_TIMEOUT_MS = 50_000;
const STOP_WAIT_MS = 15_000;
const INSTALL_DB = '/usr/bin/mariadb-install-db';
const SERVER = '/usr/sbin/mariadbd';

export class MariaDbStartError extends Error {
  constructor(message: string) {
    super(`cannot start the tests' MariaDB: ${message}`);
    this.name = 'MariaDbStartError';
  }
}

interface ServerUser {
  uid: number;
  gid: number;
}

function run(file: string, args: string[], user?: ServerUser): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { uid: user?.uid, gid: user?.gid, timeout: START_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, output: `${stdout}${stderr}${error && code === null ? error.message : ''}`.trim() });
    });
  });
}

async function serverUser(): Promise<ServerUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const uid = await run('id', ['-u', 'mysql']);
  const gid = await run('id', ['-g', 'mysql']);
  if (uid.code !== 0 || gid.code !== 0) {
    throw new MariaDbStartError(
      "running as root and there is no 'mysql' user (apt-get install -y mariadb-server makes it)",
    );
  }
  return { uid: Number(uid.output), gid: Number(gid.output) };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntilReady(child: ChildProcess, port: number, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (
      existsSync(logFile) &&
      readFileSync(logFile, 'utf8').includes('ready for connections') &&
      (await accepts(port))
    ) {
      return;
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '(no server log)';
  throw new MariaDbStartError(
    child.exitCode !== null
      ? `mariadbd exited (${child.exitCode}):\n${log}`
      : `not ready within ${START_TIMEOUT_MS} ms:\n${log}`,
  );
}

/** Starts a server; throws {@link MariaDbStartError} naming the step that failed. */
export async function startMariaDbServer(): Promise<MariaDbServer> {
  if (!existsSync(SERVER) || !existsSync(INSTALL_DB)) {
    throw new MariaDbStartError(`${SERVER} or ${INSTALL_DB} missing: apt-get install -y mariadb-server`);
  }
  const user = await serverUser();
  const rootDir = mkdtempSync(join(tmpdir(), 'bailiff-mariadb-'));
  let child: ChildProcess | undefined;
  try {
    if (user) chownSync(rootDir, user.uid, user.gid);
    const dataDir = join(rootDir, 'data');
    const installed = await run(
      INSTALL_DB,
      ['--no-defaults', `--datadir=${dataDir}`, '--auth-root-authentication-method=normal', '--skip-test-db'],
      user,
    );
    if (installed.code !== 0)
      throw new MariaDbStartError(`mariadb-install-db failed (${installed.code}): ${installed.output}`);
    const port = await freePort();
    const logFile = join(rootDir, 'server.log');
    child = spawn(
      SERVER,
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(rootDir, 'mariadb.sock')}`,
        `--pid-file=${join(rootDir, 'mariadb.pid')}`,
        `--log-error=${logFile}`,
        '--skip-grant-tables',
        '--skip-log-bin',
        '--innodb-flush-log-at-trx-commit=0',
        '--innodb-buffer-pool-size=64M',
      ],
      { uid: user?.uid, gid: user?.gid, stdio: 'ignore' },
    );
    await waitUntilReady(child, port, logFile);
    if (child.pid === undefined) throw new MariaDbStartError('mariadbd has no pid');
    return { url: `mysql://root@127.0.0.1:${port}/`, port, pid: child.pid, rootDir };
  } catch (error) {
    if (child?.pid !== undefined && child.exitCode === null) child.kill('SIGKILL');
    rmSync(rootDir, { recursive: true, force: true });
    throw error;
  }
}

/** Stops the server by its PID (SIGTERM, then SIGKILL after {@link STOP_WAIT_MS}) and removes its directory. */
export function stopMariaDbServer(server: Pick<MariaDbServer, 'pid' | 'rootDir'>): Promise<void> {
  return stopServerProcess(server, 'SIGTERM', STOP_WAIT_MS);
}
