import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { isPasswordCorrect } from '../../src/service/panel/passwords.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'bailiff-create-admin-'));
const dbPath = join(dir, 'service.db');

beforeAll(async () => {
  const storage = await openSqliteStorage(dbPath);
  await storage.stores.networks.ensureNetwork('alpha');
  await storage.stores.networks.ensureNetwork('beta');
  await storage.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function createAdmin(args: string[], stdinText: string) {
  const outChunks: string[] = [];
  const errChunks: string[] = [];
  const stdout = { write: (chunk: string) => outChunks.push(chunk) > 0 } as unknown as NodeJS.WritableStream;
  const stderr = { write: (chunk: string) => errChunks.push(chunk) > 0 } as unknown as NodeJS.WritableStream;
  const code = await runCli(['service', 'create-admin', '--db', dbPath, ...args], {
    stdout,
    stderr,
    stdin: Readable.from([stdinText]),
    cwd: dir,
  });
  return { code, out: outChunks.join(''), err: errChunks.join('') };
}

async function readAccount(username: string) {
  const storage = await openSqliteStorage(dbPath);
  try {
    const { stores } = storage;
    return { account: await stores.panelAccounts.findByUsername(username), audit: await stores.auditLog.newest(1, 10) };
  } finally {
    await storage.close();
  }
}

describe('bailiff service create-admin', () => {
  it('creates a network admin with the password read from stdin, hashed, and audits it', async () => {
    const result = await createAdmin(['--network', 'alpha', '--user', 'first'], 'first admin password\nignored\n');
    expect(result).toMatchObject({ code: 0 });
    expect(result.out).toContain("panel admin 'first' created for network 'alpha'");
    expect(result.out + result.err).not.toContain('first admin password');
    const { account, audit } = await readAccount('first');
    expect(account).toMatchObject({ networkId: 1, role: 'admin', disabled: false });
    expect(account!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await isPasswordCorrect(account!.passwordHash, 'first admin password')).toBe(true);
    expect(audit[0]).toMatchObject({ actor: 'command line', action: 'account.create', subject: 'first' });
  });

  it('creates a superuser of every network with --all-networks', async () => {
    expect((await createAdmin(['--all-networks', '--user', 'root'], 'superuser password\n')).code).toBe(0);
    expect((await readAccount('root')).account).toMatchObject({ networkId: null });
  });

  it('refuses an unknown network (naming the known ones), a short password, a taken name, a missing flag', async () => {
    const unknown = await createAdmin(['--network', 'gamma', '--user', 'x'], 'long enough password\n');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("--network: no network named 'gamma'; networks: alpha, beta");
    const short = await createAdmin(['--network', 'alpha', '--user', 'y'], 'short\n');
    expect(short.code).toBe(2);
    expect(short.err).toContain('password: must be at least 10 characters');
    expect(short.err).not.toContain('short\n');
    const taken = await createAdmin(['--network', 'beta', '--user', 'FIRST'], 'long enough password\n');
    expect(taken.err).toContain("--user: an account named 'FIRST' exists");
    const both = await createAdmin(['--user', 'z'], 'long enough password\n');
    expect(both.err).toContain('give --network NAME or --all-networks');
    const password = await createAdmin(['--network', 'alpha', '--user', 'z', '--password', 'x'], '');
    expect(password.code).toBe(2);
  });
});
