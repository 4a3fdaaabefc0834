import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { openDb } from '../../src/db/open-db.js';
import { settle } from '../support/fake-time.js';
import { apiErrors } from './helpers/fake-client.js';
import { ack, createHarness } from './helpers/outbox-harness.js';

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'bailiff-outbox-cli-'));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

async function run(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (chunk) => (chunks.out += chunk));
  stderr.on('data', (chunk) => (chunks.err += chunk));
  const code = await runCli(['outbox', ...args], { stdout, stderr, cwd });
  return { code, ...chunks };
}

/** The plugin's database in the default data folder: one sent, one pending (retrying), two dead. */
async function seedDefaultDatabase(): Promise<string> {
  mkdirSync(join(cwd, 'server/plugin-data/Bailiff'), { recursive: true });
  const path = join(cwd, 'server/plugin-data/Bailiff/bailiff.db');
  const db = openDb(path);
  const { outbox, fake } = createHarness({}, () => 0.5, db);
  fake.answer((call) => {
    const id = (call.args[0] as { punishmentId: string }).punishmentId;
    if (id.startsWith('gone')) throw apiErrors.http(404, 'punishment not found');
    if (id === 'later') throw apiErrors.http(503, 'down');
    return { message: 'ok' };
  });
  for (const id of ['fine', 'gone-1', 'gone-2', 'later']) outbox.enqueue(ack(id), { idempotencyKey: id });
  outbox.start();
  await settle();
  await outbox.stop();
  db.close();
  return path;
}

describe('bailiff outbox', () => {
  it('status reads the default data folder', async () => {
    await seedDefaultDatabase();
    const { code, out } = await run('status');
    expect(code).toBe(0);
    expect(out).toMatch(/pending: +1\n/);
    expect(out).toMatch(/in flight: +0\n/);
    expect(out).toMatch(/dead: +2\n/);
    expect(out).toMatch(/sent \(kept\): +1\n/);
    expect(out).toMatch(/oldest pending: +\S.* old\n/);
    expect(out).toMatch(/next attempt: +\d{4}-\d\d-\d\dT/);
  });

  it('dead lists id, operation, attempts and reason; retry-dead requeues', async () => {
    const path = await seedDefaultDatabase();
    const dead = await run('dead', '--db', path);
    expect(dead.code).toBe(0);
    expect(dead.out.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/id +operation +attempts +reason/),
      expect.stringMatching(/2 +acknowledgePunishment +1 +rejected by the service: 404 punishment not found/),
      expect.stringMatching(/3 +acknowledgePunishment +1 +rejected by the service: 404 punishment not found/),
    ]);
    expect(await run('retry-dead', '2', '--db', path)).toMatchObject({
      code: 0,
      out: expect.stringContaining('requeued 1 dead letter;'),
    });
    expect((await run('status', '--db', path)).out).toMatch(/dead: +1\n/);
    expect((await run('retry-dead', '--db', path)).out).toContain('requeued 1 dead letter;');
    expect((await run('dead', '--db', path)).out).toBe('no dead letters\n');
  });

  it('says clearly when there is no database or no outbox in it', async () => {
    const missing = await run('status');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`no database at ${join(cwd, 'server/plugin-data/Bailiff/bailiff.db')}`);
    const other = join(cwd, 'other.db');
    openDb(other).close();
    const noTable = await run('dead', '--db', other);
    expect(noTable).toMatchObject({ code: 1, err: expect.stringContaining('has no outbox table') });
  });

  it('rejects bad usage with exit code 2', async () => {
    expect(await run()).toMatchObject({ code: 2, err: expect.stringContaining('missing action') });
    expect(await run('purge')).toMatchObject({ code: 2, err: expect.stringContaining("unknown action 'purge'") });
    expect(await run('retry-dead', 'x1')).toMatchObject({ code: 2, err: expect.stringContaining("received 'x1'") });
    expect(await run('dead', '--limit', '0')).toMatchObject({ code: 2, err: expect.stringContaining('--limit') });
    expect(await run('status', '--bogus')).toMatchObject({ code: 2 });
  });
});
