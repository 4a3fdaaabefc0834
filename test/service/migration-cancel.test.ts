import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_STORED_REASON } from '../../src/service/migration/import-job.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { createTestDatabase, type TestDatabase, testPool } from '../support/postgres.js';
import { KEY_A1, startTestService, type TestService } from './helpers/fixture.js';
import { PanelClient } from './helpers/panel-client.js';

const PASSWORD = 'correct horse battery';
/** Enough batches (500 players each) that the import is still running when it is cancelled. */
const PLAYERS = { sqlite: 20_000, postgres: 4_000 };

function migrationFile(count: number): string {
  const players = Array.from({ length: count }, (_, n) => ({
    minecraftUuid: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    usernames: [{ username: `player${n}`, date: '2025-01-01T00:00:00Z' }],
    punishments: [{ id: `c-${n}`, typeOrdinal: 2, issued: 1_700_000_000_000 + n, duration: -1, active: true }],
  }));
  return JSON.stringify({ players });
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const SETUPS = [
  { dialect: 'sqlite', players: PLAYERS.sqlite },
  { dialect: 'postgres', players: PLAYERS.postgres },
] as const;

/**
 * Issue 31: an operator cancels a migration import (admin API, and the panel's Cancel button with
 * `migrate`), whether it runs here or its instance is gone; an upload whose file never reached the
 * database is failed with the reason by the instance that finds it.
 */
describe.each(SETUPS)('cancelling migration imports on $dialect', { timeout: 180_000 }, ({ dialect, players }) => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-migration-cancel-'));
  let database: TestDatabase | undefined;
  let t: TestService;
  let alpha: number;

  beforeAll(async () => {
    if (dialect === 'postgres') database = await createTestDatabase();
    t = await startTestService({
      ...(database ? { databaseUrl: database.url } : { dbPath: join(dir, 'service.db') }),
      migrationLeaseMs: 500,
      ids: () => crypto.randomUUID().slice(0, 12),
    });
    alpha = (await t.service.context.stores.networks.findNetwork('alpha'))!;
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The upload's row and the punishments of the file stored, read from the database itself. */
  async function storedUpload(uploadId: string) {
    const upload = 'SELECT status, CAST(processed AS INTEGER) AS processed FROM service_migration_uploads WHERE id = ';
    const imported = "SELECT count(*) AS n FROM service_punishments WHERE id LIKE 'c-%'";
    if (database) {
      const pool = testPool(database.url);
      try {
        const row = (await pool.query(`${upload}$1`, [uploadId])).rows[0] as { status: string; processed: number };
        const count = (await pool.query<{ n: number }>(imported.replace('count(*)', 'count(*)::int'))).rows[0]!.n;
        return { ...row, imported: count };
      } finally {
        await pool.end();
      }
    }
    const db = new Database(join(dir, 'service.db'), { readonly: true });
    try {
      const row = db.prepare(`${upload}?`).get(uploadId) as { status: string; processed: number };
      return { ...row, imported: (db.prepare(imported).get() as { n: number }).n };
    } finally {
      db.close();
    }
  }

  /** An import held by an instance that is gone, or another, with a far lease: only a cancel ends it. */
  async function heldElsewhere(id: string, storedChunks: number | null) {
    const { migrations } = t.service.context.stores;
    await migrations.startUpload({
      id,
      networkId: alpha,
      serverId: null,
      uploadedBy: 'alice',
      fileSize: 1,
      total: 10,
      nowMs: t.clock.now(),
      lease: { owner: 'elsewhere.1', expiresAtMs: t.clock.now() + 3_600_000 },
    });
    await migrations.storeChunk(id, 0, Buffer.from('{"players": []}'));
    if (storedChunks !== null) await migrations.markStored(id, storedChunks, 'queued', t.clock.now());
  }

  it('cancels through the admin API: 200 once, then 409; 404 for an unknown upload', async () => {
    await heldElsewhere('ghost-1', 1);
    const cancel = (id: string) => t.admin('POST', `/networks/alpha/migrations/${id}/cancel`);
    const first = await cancel('ghost-1');
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      success: true,
      migration: {
        id: 'ghost-1',
        status: 'failed',
        message: 'cancelled by the admin API; what was imported before stays',
      },
    });
    expect(await t.service.context.stores.migrations.chunk('ghost-1', 0)).toBeUndefined();
    const again = await cancel('ghost-1');
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(
      'migration upload ghost-1 is failed, not running: nothing to cancel',
    );
    expect((await cancel('no-such-upload')).status).toBe(404);
    const audit = await t.service.context.stores.auditLog.newest(alpha, 20);
    expect(audit.find((entry) => entry.action === 'migration.cancel')).toMatchObject({
      subject: 'ghost-1',
      via: 'admin',
    });
  });

  it('cancels from the panel with migrate, and refuses a role without it', async () => {
    const { panelAccounts } = t.service.context.stores;
    const passwordHash = await hashPassword(PASSWORD);
    await panelAccounts.create({ networkId: alpha, username: 'boss', passwordHash, role: 'admin', nowMs: 0 });
    await panelAccounts.create({ networkId: alpha, username: 'mod', passwordHash, role: 'moderator', nowMs: 0 });
    const boss = new PanelClient(t.service.url);
    await boss.login('boss', PASSWORD);
    const mod = new PanelClient(t.service.url);
    await mod.login('mod', PASSWORD);
    await heldElsewhere('ghost-2', 1);

    const page = await boss.get('/panel/migration');
    expect(page.html).toContain('action="/panel/migration/ghost-2/cancel"');
    expect((await mod.post('/panel/migration/ghost-2/cancel')).status).toBe(403);
    const cancelled = await boss.post('/panel/migration/ghost-2/cancel');
    expect(cancelled).toMatchObject({ status: 303, location: '/panel/migration' });
    const after = await boss.get('/panel/migration');
    expect(after.html).toContain('cancelled by panel (boss)');
    expect(after.html).not.toContain('action="/panel/migration/ghost-2/cancel"');
    expect((await boss.post('/panel/migration/ghost-2/cancel')).status).toBe(409);
    expect((await boss.post('/panel/migration/none/cancel')).status).toBe(404);
  });

  it('fails an upload whose file never reached the database, once its lease runs out', async () => {
    const { migrations } = t.service.context.stores;
    await migrations.startUpload({
      id: 'half-stored',
      networkId: alpha,
      serverId: null,
      fileSize: 1,
      total: 10,
      nowMs: t.clock.now(),
      message: 'storing the file',
      lease: { owner: 'gone.1', expiresAtMs: 0 },
    });
    await migrations.storeChunk('half-stored', 0, Buffer.from('{"pla'));
    const failed = await waitFor('the upload to be failed by this instance', async () => {
      const upload = await migrations.find(alpha, 'half-stored');
      return upload?.status === 'failed' ? upload : undefined;
    });
    expect(failed.message).toBe(NOT_STORED_REASON);
    expect(await migrations.chunk('half-stored', 0)).toBeUndefined();
  });

  it('stops a running import at its next batch: what it imported stays, nothing more', async () => {
    const form = new FormData();
    form.append('migrationFile', new Blob([migrationFile(players)], { type: 'application/json' }), 'export.json');
    const uploaded = await fetch(`${t.base}/migration/upload`, {
      method: 'POST',
      headers: { 'x-api-key': KEY_A1 },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { uploadId } = (await uploaded.json()) as { uploadId: string };
    const cancel = await t.admin('POST', `/networks/alpha/migrations/${uploadId}/cancel`);
    expect(cancel.status).toBe(200);
    const { migration } = (await cancel.json()) as { migration: { processed: number; status: string } };
    expect(migration.status).toBe('failed');
    expect(migration.processed).toBeLessThan(players);
    // Once nothing runs, the punishments stored are exactly the batches recorded before the cancel.
    await t.close();
    const upload = await storedUpload(uploadId);
    expect(upload).toEqual({ status: 'failed', processed: migration.processed, imported: migration.processed });
  });
});
