import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JEB, startTestService, type TestService } from './helpers/fixture.js';

/**
 * Issue 31, on SQLite: a database error that is no fault of the request (here another process
 * holding the write lock past the busy timeout) answers 503 with `Retry-After` and a message naming
 * the database, as a PostgreSQL outage does, and the service answers again once it is free.
 */
describe('SQLite busy past its busy timeout', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-sqlite-busy-'));
  const path = join(dir, 'service.db');
  let t: TestService;
  let other: Database.Database;

  beforeAll(async () => {
    t = await startTestService({ dbPath: path });
    other = new Database(path);
  });
  afterAll(async () => {
    other?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ban = () =>
    t.call('POST', '/punishments/dynamic', { targetUuid: JEB, typeOrdinal: 2, issuerName: 'Mod', reason: 'busy' });

  it('answers a write 503 while another connection holds the lock, reads meanwhile, and writes once it is free', async () => {
    other.exec('BEGIN IMMEDIATE');
    const refused = await ban();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      status: 503,
      success: false,
      error: 'Service Unavailable',
      message: 'service unavailable: the SQLite database is busy (another connection holds its lock); retry in 1 s',
      retryAfterSeconds: 1,
    });
    // WAL: readers never wait for the writer.
    expect((await t.call('GET', '/punishments/recent?hours=1')).status).toBe(200);

    other.exec('ROLLBACK');
    expect((await ban()).status).toBe(200);
  });
});
