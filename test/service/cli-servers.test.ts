import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { createServiceStorage } from '../../src/service/store/create-storage.js';
import type { ServiceStorage } from '../../src/service/store/ports/storage.js';
import type { PostgresStorage } from '../../src/service/store/postgres/postgres-storage.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

const KEY_LINE = /^[A-Za-z0-9_-]{43}$/m;

interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** The database each case works on, named by flag (SQLite) or by the environment (PostgreSQL). */
interface Backend {
  dialect: 'sqlite' | 'postgres';
  flags: string[];
  env: NodeJS.ProcessEnv;
  open(): Promise<ServiceStorage>;
  /** Whether a string appears anywhere in what the database keeps. */
  holds(text: string): Promise<boolean>;
}

async function bailiff(backend: Backend, args: string[], stdinText = ''): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = { write: (chunk: string) => out.push(chunk) > 0 } as unknown as NodeJS.WritableStream;
  const stderr = { write: (chunk: string) => err.push(chunk) > 0 } as unknown as NodeJS.WritableStream;
  const [group, ...rest] = args;
  const code = await runCli(['service', group!, ...rest, ...backend.flags], {
    stdout,
    stderr,
    stdin: Readable.from([stdinText]),
    env: backend.env,
    cwd: tmpdir(),
  });
  return { code, out: out.join(''), err: err.join('') };
}

const dir = mkdtempSync(join(tmpdir(), 'bailiff-cli-servers-'));
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

function sqliteBackend(): Backend {
  const dbPath = join(dir, 'service.db');
  return {
    dialect: 'sqlite',
    flags: ['--db', dbPath],
    env: {},
    open: () => createServiceStorage({ dbPath }),
    holds: async (text) => {
      const storage = await createServiceStorage({ dbPath });
      await storage.close();
      return ['', '-wal'].some((suffix) => {
        try {
          return readFileSync(`${dbPath}${suffix}`).includes(text);
        } catch {
          return false;
        }
      });
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  const database = await createTestDatabase();
  databases.push(database);
  const open = () => createServiceStorage({ dbPath: ':memory:', databaseUrl: database.url });
  return {
    dialect: 'postgres',
    flags: [],
    env: { BAILIFF_DATABASE_URL: database.url },
    open,
    holds: async (text) => {
      const storage = (await open()) as PostgresStorage;
      try {
        const tables = await storage.pool.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
        );
        for (const { tablename } of tables.rows) {
          const found = await storage.pool.query(`SELECT 1 FROM ${tablename} AS t WHERE t::text LIKE $1 LIMIT 1`, [
            `%${text}%`,
          ]);
          if (found.rowCount) return true;
        }
        return false;
      } finally {
        await storage.close();
      }
    },
  };
}

describe.each(['sqlite', 'postgres'] as const)('bailiff service network, server and key on %s', (dialect) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = dialect === 'sqlite' ? sqliteBackend() : await postgresBackend();
  });

  async function authenticate(apiKey: string) {
    const storage = await backend.open();
    try {
      return await storage.stores.networks.authenticate(apiKey);
    } finally {
      await storage.close();
    }
  }

  async function auditActions() {
    const storage = await backend.open();
    try {
      const id = (await storage.stores.networks.findNetwork('main'))!;
      return (await storage.stores.auditLog.newest(id, 50)).map((entry) => [entry.actor, entry.action, entry.subject]);
    } finally {
      await storage.close();
    }
  }

  it('adds a network and a server, printing its key once; the key works and only its hash is kept', async () => {
    expect(await bailiff(backend, ['network', 'list'])).toMatchObject({ code: 0, out: 'no networks yet\n' });
    const network = await bailiff(backend, ['network', 'add', '--name', 'main']);
    expect(network).toMatchObject({ code: 0 });
    expect(network.out).toContain("network 'main' added");
    expect((await bailiff(backend, ['network', 'list'])).out).toBe('main\n');

    const added = await bailiff(backend, ['server', 'add', '--network', 'main', '--name', 'survival']);
    expect(added).toMatchObject({ code: 0, err: '' });
    const key = KEY_LINE.exec(added.out)?.[0];
    expect(key).toBeDefined();
    expect(await authenticate(key!)).toMatchObject({ serverName: 'survival' });
    expect(await backend.holds(key!)).toBe(false);

    const second = await bailiff(backend, ['server', 'add', '--network', 'main', '--name', 'lobby']);
    const secondKey = KEY_LINE.exec(second.out)?.[0];
    expect(secondKey).not.toBe(key);

    const listed = await bailiff(backend, ['server', 'list', '--network', 'main']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^lobby\tkey set \d{4}-\d\d-\d\dT[\d:.]+Z\nsurvival\tkey set /);
    expect(listed.out).not.toContain(key);
    expect(listed.out).not.toContain(secondKey);
  });

  it('rotates a key with a grace period (both keys accepted) and without (the old one refused at once)', async () => {
    const before = KEY_LINE.exec(
      (await bailiff(backend, ['server', 'add', '--network', 'main', '--name', 'hub'])).out,
    )![0];
    const rotated = await bailiff(backend, ['key', 'rotate', '--network', 'main', '--server', 'hub', '--grace', '1h']);
    expect(rotated).toMatchObject({ code: 0, err: '' });
    expect(rotated.out).toMatch(/The old key is accepted until \d{4}-.*Z, then refused\./);
    const after = KEY_LINE.exec(rotated.out)![0];
    expect(after).not.toBe(before);
    expect(await authenticate(before)).toMatchObject({ serverName: 'hub' });
    expect(await authenticate(after)).toMatchObject({ serverName: 'hub' });
    const listed = await bailiff(backend, ['server', 'list', '--network', 'main']);
    expect(listed.out).toMatch(/^hub\tkey set [^;\n]+; an old key accepted until [^\n]+Z$/m);

    const cut = await bailiff(backend, ['key', 'rotate', '--network', 'main', '--server', 'hub', '--grace', '0']);
    expect(cut.out).toContain('The old key is refused from now on.');
    const newest = KEY_LINE.exec(cut.out)![0];
    expect(await authenticate(after)).toBeUndefined();
    expect(await authenticate(newest)).toMatchObject({ serverName: 'hub' });
    // The key rotated with a grace period stays accepted until its own time is over.
    expect(await authenticate(before)).toMatchObject({ serverName: 'hub' });
  });

  it('removes a server: its keys are refused, it is no longer listed, and everything is in the audit log', async () => {
    const key = KEY_LINE.exec(
      (await bailiff(backend, ['server', 'add', '--network', 'main', '--name', 'old'])).out,
    )![0];
    const removed = await bailiff(backend, ['server', 'remove', '--network', 'main', '--name', 'old']);
    expect(removed).toMatchObject({ code: 0 });
    expect(await authenticate(key)).toBeUndefined();
    expect((await bailiff(backend, ['server', 'list', '--network', 'main'])).out).not.toMatch(/^old\t/m);
    const actions = await auditActions();
    expect(actions).toEqual(
      expect.arrayContaining([
        ['command line', 'network.create', 'main'],
        ['command line', 'server.create', 'survival'],
        ['command line', 'server.key-rotate', 'hub'],
        ['command line', 'server.remove', 'old'],
      ]),
    );
    expect(JSON.stringify(actions)).not.toContain(key);
  });

  it('refuses with exit code 2 and a message naming what was wrong, changing nothing', async () => {
    const unknown = await bailiff(backend, ['server', 'add', '--network', 'nope', '--name', 'x']);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.err).toContain("network: no network named 'nope'; networks: main");
    const taken = await bailiff(backend, ['server', 'add', '--network', 'main', '--name', 'survival']);
    expect(taken.code).toBe(2);
    expect(taken.err).toContain("server: a server named 'survival' exists");
    const badName = await bailiff(backend, ['server', 'add', '--network', 'main', '--name', 'a b']);
    expect(badName.err).toContain("server: 'a b' is not a valid name");
    const twice = await bailiff(backend, ['network', 'add', '--name', 'main']);
    expect(twice.err).toContain("network: a network named 'main' exists");
    const grace = await bailiff(backend, ['key', 'rotate', '--network', 'main', '--server', 'hub', '--grace', '40d']);
    expect(grace.err).toContain('grace: must be from 0 to 30 days');
    const noGrace = await bailiff(backend, ['key', 'rotate', '--network', 'main', '--server', 'hub']);
    expect(noGrace.err).toContain('--grace is required');
    const noServer = await bailiff(backend, [
      'key',
      'rotate',
      '--network',
      'main',
      '--server',
      'ghost',
      '--grace',
      '0',
    ]);
    expect(noServer.err).toContain("server: no server named 'ghost' in this network");
    expect(
      (await bailiff(backend, ['server', 'list', '--network', 'main'])).out.split('\n').filter(Boolean),
    ).toHaveLength(3);
  });

  it('creates the first panel admin on this database', async () => {
    const created = await bailiff(
      backend,
      ['create-admin', '--network', 'main', '--user', 'first'],
      'a long enough password\n',
    );
    expect(created).toMatchObject({ code: 0 });
    const storage = await backend.open();
    try {
      expect(await storage.stores.panelAccounts.findByUsername('first')).toMatchObject({ role: 'admin' });
    } finally {
      await storage.close();
    }
  });
});

describe('which database the commands use', () => {
  it('needs --db or --database-url (or BAILIFF_DATABASE_URL), not both, and never echoes the URL', async () => {
    const none: Backend = {
      dialect: 'sqlite',
      flags: [],
      env: {},
      open: async () => undefined as never,
      holds: async () => false,
    };
    const missing = await bailiff(none, ['network', 'list']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('give --db PATH or --database-url URL (or set BAILIFF_DATABASE_URL)');
    const both = await bailiff(
      { ...none, flags: ['--db', join(dir, 'x.db'), '--database-url', 'postgres://u:secret@127.0.0.1/x'] },
      ['network', 'list'],
    );
    expect(both.err).toContain('give it or --db (a SQLite file), not both');
    const notPostgres = await bailiff({ ...none, env: { BAILIFF_DATABASE_URL: 'mysql://u:secret@h/x' } }, [
      'network',
      'list',
    ]);
    expect(notPostgres.err).toContain('must be a postgres:// or postgresql:// URL');
    expect(notPostgres.err).not.toContain('secret');
  });

  it('says which PostgreSQL it could not reach, without the password (exit code 1)', async () => {
    const unreachable = await bailiff(
      {
        dialect: 'postgres',
        flags: ['--database-url', 'postgres://bailiff:hunter2@127.0.0.1:1/nowhere'],
        env: {},
        open: async () => undefined as never,
        holds: async () => false,
      },
      ['network', 'list'],
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain('cannot open the PostgreSQL database postgres://bailiff:***@127.0.0.1:1/nowhere');
    expect(unreachable.err).not.toContain('hunter2');
  });
});
