import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb, WAL_SIZE_LIMIT_BYTES } from '../../src/db/open-db.js';
import { startWalCheckpointer } from '../../src/db/wal-checkpointer.js';

describe('startWalCheckpointer', () => {
  const dirs: string[] = [];
  const dbs: Db[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function tempDb(): { db: Db; path: string } {
    const dir = mkdtempSync(join(tmpdir(), 'bailiff-wal-'));
    dirs.push(dir);
    const path = join(dir, 'test.db');
    const db = openDb(path);
    dbs.push(db);
    return { db, path };
  }

  it('takes checkpoints off the commits and copies the WAL into the file when stopped', async () => {
    const { db, path } = tempDb();
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
    // A long interval: the only checkpoint in this test is the one stop() runs.
    const checkpointer = startWalCheckpointer(db, { intervalMs: 600_000 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const insert = db.prepare('INSERT INTO rows (payload) VALUES (?)');
    for (let at = 0; at < 3000; at += 1) db.transaction(() => insert.run('x'.repeat(200)))();
    const fileBytesBefore = statSync(path).size;

    await checkpointer.stop();

    // 3,000 rows of 200 bytes are past SQLite's own threshold; none of it reached the file until stop().
    expect(fileBytesBefore).toBeLessThan(100_000);
    expect(statSync(path).size).toBeGreaterThan(600_000);
    const reader = openDb(path, { readonly: true });
    dbs.push(reader);
    expect(reader.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 3000 });
    await checkpointer.stop();
  });

  it('cuts the WAL file back under the limit at the first commit after a burst was copied, and keeps it there', async () => {
    const { db, path } = tempDb();
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
    db.exec('CREATE INDEX rows_payload ON rows (payload)');
    const checkpointer = startWalCheckpointer(db, { intervalMs: 600_000 });
    const insert = db.prepare('INSERT INTO rows (payload) VALUES (?)');
    // A cache's first fill: one commit per row, as the stream's snapshot pages are applied.
    const fill = (rows: number, from: number) => {
      for (let at = from; at < from + rows; at += 1) db.transaction(() => insert.run(`${at}:${'x'.repeat(600)}`))();
    };
    fill(3000, 0);
    const walAfterFill = statSync(`${path}-wal`).size;

    await checkpointer.checkpointNow();
    fill(1, 5000);

    expect(walAfterFill).toBeGreaterThan(2 * WAL_SIZE_LIMIT_BYTES);
    expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    // Ordinary traffic afterwards: the file stays under the limit across checkpoints.
    for (let round = 0; round < 3; round += 1) {
      fill(300, 10_000 + round * 300);
      await checkpointer.checkpointNow();
      fill(1, 20_000 + round);
      expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    }
    expect(db.prepare('SELECT count(*) AS n FROM rows').get()).toEqual({ n: 3000 + 1 + 900 + 3 });
    await checkpointer.stop();
  });

  it('does nothing for an in-memory database', async () => {
    const db = openDb(':memory:');
    dbs.push(db);
    const checkpointer = startWalCheckpointer(db);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointer.stop();
  });
});
