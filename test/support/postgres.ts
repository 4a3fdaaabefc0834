import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { readSharedFailure, readSharedServer, runDirFiles, writeRunDirFile } from './postgres-run-dir.js';
import { type PostgresServer, startPostgresServer } from './postgres-server.js';

/** A database of its own for one test file, on the run's shared PostgreSQL. */
export interface TestDatabase {
  /** `postgres://` URL of this database. */
  url: string;
  name: string;
  /** Drops the database (closing whatever connections are left). */
  drop(): Promise<void>;
}

// Below vitest's hookTimeout (60 s), so a file waiting in beforeAll fails with this reason, not a timeout.
const WAIT_FOR_SERVER_MS = 50_000;
const POLL_MS = 50;

/** A PostgreSQL of your own for the tests (a role that may create databases), instead of the one they start. */
export const TEST_POSTGRES_URL_VARIABLE = 'BAILIFF_TEST_POSTGRES_URL';

let shared: Promise<Pick<PostgresServer, 'adminUrl'>> | undefined;

/** Starts the run's server when this file is the first to ask, else waits for the one that is starting it. */
async function startOrJoin(runDir: string): Promise<PostgresServer> {
  const files = runDirFiles(runDir);
  let starter = false;
  try {
    mkdirSync(files.lock);
    starter = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (starter) {
    try {
      const server = await startPostgresServer();
      writeRunDirFile(files.server, JSON.stringify(server));
      return server;
    } catch (error) {
      writeRunDirFile(files.failure, (error as Error).message);
      throw error;
    }
  }
  const deadline = Date.now() + WAIT_FOR_SERVER_MS;
  while (Date.now() < deadline) {
    const server = readSharedServer(runDir);
    if (server) return server;
    const failure = readSharedFailure(runDir);
    if (failure !== undefined) throw new Error(failure);
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
  throw new Error(`the tests' PostgreSQL did not start within ${WAIT_FOR_SERVER_MS} ms (another test file starts it)`);
}

function sharedServer(): Promise<Pick<PostgresServer, 'adminUrl'>> {
  const own = process.env[TEST_POSTGRES_URL_VARIABLE];
  if (own) {
    shared ??= Promise.resolve({ adminUrl: own });
    return shared;
  }
  const runDir = inject('postgresRunDir');
  if (!runDir) {
    throw new Error('no PostgreSQL for this run: vitest.config.ts must list test/support/postgres-global-setup.ts');
  }
  shared ??= startOrJoin(runDir);
  return shared;
}

async function asAdmin<T>(
  server: Pick<PostgresServer, 'adminUrl'>,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database on the run's PostgreSQL (started by the first file that needs one), so
 * test files run in parallel without seeing each other's rows. Fails, never skips, when
 * PostgreSQL cannot start.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = await sharedServer();
  const name = `bailiff_test_${randomBytes(6).toString('hex')}`;
  // The name is ours (hex), so it goes into the statement as it is: CREATE DATABASE takes no parameters.
  await asAdmin(server, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      asAdmin(server, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
