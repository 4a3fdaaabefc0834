import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../src/service/index.js';
import { createTestDatabase, type TestDatabase, testPool } from '../support/postgres.js';
import { ADMIN_TOKEN, KEY_A1, testSeed } from './helpers/fixture.js';
import { type ServiceChild, startServiceChild } from './helpers/service-child-process.js';

/**
 * Players in the file: enough batches (500 each) that an instance is killed with most still to
 * import. PostgreSQL imports a player in a few round trips, SQLite many times faster.
 */
const PLAYERS = { sqlite: 20_000, postgres: 4_000 };
/** Short leases, so a takeover happens within the test; the default is 30 s. */
const LEASE_MS = 2_000;

function migrationFile(count: number): string {
  const players = Array.from({ length: count }, (_, n) => ({
    minecraftUuid: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    usernames: [{ username: `player${n}`, date: '2025-01-01T00:00:00Z' }],
    punishments: [
      { id: `m-${n}`, typeOrdinal: 2, reason: 'old ban', issued: 1_700_000_000_000 + n, duration: -1, active: true },
    ],
  }));
  return JSON.stringify({ players });
}

async function upload(service: Pick<ServiceChild, 'url'>, content: string): Promise<string> {
  const form = new FormData();
  form.append('migrationFile', new Blob([content], { type: 'application/json' }), 'export.json');
  const response = await fetch(`${service.url}/v1/minecraft/migration/upload`, {
    method: 'POST',
    headers: { 'x-api-key': KEY_A1 },
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { uploadId: string }).uploadId;
}

/** An upload's row as the database holds it: read beside the instances, never waiting for their loops. */
interface UploadState {
  status: string;
  processed: number;
  total: number;
  message: string;
}
type ReadUpload = (uploadId: string) => Promise<UploadState | undefined>;

const UPLOAD_STATE =
  'SELECT status, CAST(processed AS INTEGER) AS processed, CAST(total AS INTEGER) AS total, message FROM service_migration_uploads WHERE id = $1';

/** Polls the upload until `done` says so, for at most `ms`. */
async function until(
  read: ReadUpload,
  uploadId: string,
  done: (upload: UploadState) => boolean,
  ms = 120_000,
): Promise<UploadState> {
  const deadline = Date.now() + ms;
  for (;;) {
    const current = await read(uploadId);
    if (process.env.DEBUG_TAKEOVER) console.log(Date.now(), JSON.stringify(current));
    if (current && done(current)) return current;
    if (Date.now() > deadline) throw new Error(`upload ${uploadId} still ${JSON.stringify(current)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const midImport = (upload: UploadState) => upload.processed >= 500 && upload.processed < upload.total / 2;
const completed = (upload: UploadState) => upload.status !== 'processing';

/** What the finished import must say: every player once, nothing counted twice. */
function expectImportedOnce(finished: UploadState, players: number, stored: number): void {
  expect(finished).toMatchObject({
    status: 'completed',
    processed: players,
    total: players,
    message: `imported ${players} players and ${players} punishments (0 already known, 0 invalid records skipped)`,
  });
  expect(stored).toBe(players);
}

/**
 * Issue 31: a migration import survives the instance running it. The instance is killed (SIGKILL)
 * mid-import; the same service restarted on its SQLite file, or another instance on the same
 * PostgreSQL, takes the import over once its lease runs out and finishes it from the last
 * committed batch: every punishment imported once, none counted as already known.
 */
describe('a migration import whose instance dies', { timeout: 180_000 }, () => {
  const children: ServiceChild[] = [];
  const start = async (options: Parameters<typeof startServiceChild>[0]) => {
    const child = await startServiceChild({
      seed: testSeed(),
      adminToken: ADMIN_TOKEN,
      migrationLeaseMs: LEASE_MS,
      ...options,
    });
    children.push(child);
    return child;
  };
  afterAll(async () => {
    for (const child of children) await child.kill();
  });

  describe('on SQLite: the service restarted on the same file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bailiff-migration-takeover-'));
    const dbPath = join(dir, 'service.db');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('goes on after the restart from the last committed batch', async () => {
      const first = await start({ dbPath });
      const db = new Database(dbPath, { readonly: true });
      const statement = db.prepare<[string], UploadState>(UPLOAD_STATE.replace('$1', '?'));
      const read: ReadUpload = async (uploadId) => statement.get(uploadId);
      try {
        const uploadId = await upload(first, migrationFile(PLAYERS.sqlite));
        const atKill = await until(read, uploadId, midImport);
        await first.kill();

        const restarted = await start({ dbPath });
        const finished = await until(read, uploadId, completed);
        await restarted.close();
        const stored = db.prepare("SELECT count(*) AS n FROM service_punishments WHERE id LIKE 'm-%'").get() as {
          n: number;
        };
        const chunks = db.prepare('SELECT count(*) AS n FROM service_migration_chunks').get() as { n: number };
        expect(atKill.processed).toBeLessThan(PLAYERS.sqlite);
        expectImportedOnce(finished, PLAYERS.sqlite, stored.n);
        expect(chunks.n).toBe(0);
      } finally {
        db.close();
      }
    });
  });

  describe('on SQLite: the service stopped cleanly and started again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bailiff-migration-restart-'));
    const dbPath = join(dir, 'service.db');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('lets go of the import when it stops, and the next start goes on with it at once', async () => {
      // The default lease (30 s): a clean stop does not wait for it.
      const options = { dbPath, seed: testSeed(), adminToken: ADMIN_TOKEN };
      const first = await startService(options);
      const db = new Database(dbPath, { readonly: true });
      const statement = db.prepare<[string], UploadState>(UPLOAD_STATE.replace('$1', '?'));
      const read: ReadUpload = async (uploadId) => statement.get(uploadId);
      try {
        const uploadId = await upload({ url: first.url }, migrationFile(PLAYERS.sqlite));
        await until(read, uploadId, midImport);
        await first.close();
        expect((await read(uploadId))!.status).toBe('processing');

        const again = await startService(options);
        const finished = await until(read, uploadId, completed);
        await again.close();
        const stored = db.prepare("SELECT count(*) AS n FROM service_punishments WHERE id LIKE 'm-%'").get() as {
          n: number;
        };
        expectImportedOnce(finished, PLAYERS.sqlite, stored.n);
      } finally {
        db.close();
      }
    });
  });

  describe('on PostgreSQL: another instance', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('takes the import over and finishes it once the killed instance’s lease runs out', async () => {
      const a = await start({ databaseUrl: database.url });
      await start({ databaseUrl: database.url });
      const pool = testPool(database.url);
      const read: ReadUpload = async (uploadId) => (await pool.query<UploadState>(UPLOAD_STATE, [uploadId])).rows[0];
      try {
        const uploadId = await upload(a, migrationFile(PLAYERS.postgres));
        const atKill = await until(read, uploadId, midImport);
        await a.kill();

        const finished = await until(read, uploadId, completed);
        const stored = await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM service_punishments WHERE id LIKE 'm-%'",
        );
        const chunks = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM service_migration_chunks');
        expect(atKill.processed).toBeLessThan(PLAYERS.postgres);
        expectImportedOnce(finished, PLAYERS.postgres, stored.rows[0]!.n);
        expect(chunks.rows[0]!.n).toBe(0);
      } finally {
        await pool.end();
      }
    });
  });
});
