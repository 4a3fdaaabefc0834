import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/db/open-db.js';
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

  it('does nothing for an in-memory database', async () => {
    const db = openDb(':memory:');
    dbs.push(db);
    const checkpointer = startWalCheckpointer(db);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointer.stop();
  });
});
