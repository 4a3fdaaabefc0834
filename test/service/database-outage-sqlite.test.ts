import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JEB, startTestService, type TestService } from './helpers/fixture.js';

// Another connection, on a thread of its own like another process's: its BEGIN waits for the
// service's transaction (on the service's event loop) instead of blocking that loop.
const LOCK_HOLDER = `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(workerData.driver);
  const db = new Database(workerData.path);
  parentPort.on('message', (command) => {
    db.exec(command);
    parentPort.postMessage(command);
  });
`;

/** Runs `command` (BEGIN IMMEDIATE, ROLLBACK) on the other connection; resolves once it ran. */
async function onOther(other: Worker, command: string): Promise<void> {
  other.postMessage(command);
  await once(other, 'message');
}

/**
 * Issue 31, on SQLite: a database error that is no fault of the request (here another process
 * holding the write lock past the busy timeout) answers 503 with `Retry-After` and a message naming
 * the database, as a PostgreSQL outage does, and the service answers again once it is free.
 */
describe('SQLite busy past its busy timeout', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-sqlite-busy-'));
  const path = join(dir, 'service.db');
  let t: TestService;
  let other: Worker;

  beforeAll(async () => {
    t = await startTestService({ dbPath: path });
    other = new Worker(LOCK_HOLDER, {
      eval: true,
      workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
  });
  afterAll(async () => {
    await other?.terminate();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ban = () =>
    t.call('POST', '/punishments/dynamic', { targetUuid: JEB, typeOrdinal: 2, issuerName: 'Mod', reason: 'busy' });

  it('answers a write 503 while another connection holds the lock, reads meanwhile, and writes once it is free', async () => {
    await onOther(other, 'BEGIN IMMEDIATE');
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

    await onOther(other, 'ROLLBACK');
    expect((await ban()).status).toBe(200);
  });
});
