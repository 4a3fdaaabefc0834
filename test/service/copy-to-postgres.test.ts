import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/db/open-db.js';
import { createPgPool } from '../../src/service/db/dialect/postgres-driver.js';
import { openPostgresStorage, openSqliteStorage } from '../../src/service/store/open-storage.js';
import type { ServiceStoresPorts } from '../../src/service/store/ports/stores.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { writeLegacySqliteFile } from './store/legacy-fixtures.js';
import { JEB, NOTCH, newAppealTicketFixture, newPunishment } from './store-conformance/fixtures.js';

const MAIN = join(import.meta.dirname, '../../dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'bailiff-copy-test-'));
const sqlitePath = join(dir, 'service.db');
let database: TestDatabase;
let pool: pg.Pool;

/** Runs the built `bailiff service copy-to-postgres` with the URL in the environment (never on the command line). */
function copy(args: string[], databaseUrl: string, from = sqlitePath) {
  return service(['copy-to-postgres', '--from', from, ...args], databaseUrl);
}

function service(args: string[], databaseUrl: string) {
  const child = spawn(process.execPath, [MAIN, 'service', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BAILIFF_DATABASE_URL: databaseUrl },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timeout = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timeout);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Every table of a running service, written through its stores (and its triggers: the change log). */
async function populate(stores: ServiceStoresPorts): Promise<void> {
  const alpha = await stores.networks.ensureNetwork('alpha');
  const beta = await stores.networks.ensureNetwork('beta');
  const lobby = await stores.networks.ensureServer(alpha, 'lobby', 'lobby-key-0123456789abcdef');
  await stores.networks.ensureServer(beta, 'hub', 'hub-key-0123456789abcdefgh');
  // A rotated key in its grace period (service_retired_keys).
  await stores.serverKeys.rotateKey(lobby, 'lobby-key-2-0123456789abcdef', 2_000, 4_000_000_000_000);
  await stores.players.recordLogin(alpha, {
    uuid: NOTCH,
    name: 'Notch',
    ip: '203.0.113.7',
    server: 'lobby',
    at: 1_000,
  });
  await stores.players.recordLogin(alpha, { uuid: JEB, name: 'jeb_', ip: '203.0.113.7', server: 'lobby', at: 1_500 });
  await stores.playerIps.record(alpha, NOTCH, '203.0.113.7', 1_000);
  await stores.playerIps.record(alpha, JEB, '203.0.113.7', 1_500);
  for (let n = 0; n < 2_500; n += 1) {
    await stores.punishments.insert(newPunishment(n % 3 === 0 ? beta : alpha, `p${n}`, { createdAt: 1_000 + n }));
  }
  await stores.punishments.insert(newPunishment(alpha, 'ip', { data: { ipAddress: '203.0.113.0/24' } }));
  await stores.punishments.setStatus(alpha, 'p1', 'pardoned', 3_000);
  await stores.pardons.record({
    networkId: alpha,
    punishmentId: 'p1',
    issuerName: 'mod',
    reason: 'oops',
    serverId: lobby,
    pardonedAt: 3_000,
  });
  await stores.enforcement.recordAcknowledgement({
    networkId: alpha,
    punishmentId: 'p2',
    serverId: lobby,
    playerUuid: NOTCH,
    executedAt: 2_000,
    success: true,
    receivedAt: 2_001,
  });
  await stores.enforcement.addEvidence(alpha, 'p2', 'mod', 'https://example.invalid/shot.png', 2_100);
  await stores.notifications.create(alpha, 'p2', NOTCH, 2_200);
  await stores.idempotencyKeys.record(alpha, 'key-1', { requestHash: 'ab'.repeat(32), punishmentId: 'p4' }, 2_300);
  await stores.tickets.save(alpha, {
    id: 't1',
    type: 'player',
    subject: 'griefer',
    description: 'burned my house',
    status: 'Open',
    priority: 'High',
    creatorUuid: NOTCH,
    creatorName: 'Notch',
    reportedPlayerUuid: JEB,
    reportedPlayerName: 'jeb_',
    tags: ['fire'],
    createdAt: new Date(2_000).toISOString(),
    updatedAt: new Date(2_000).toISOString(),
    replies: [{ id: 'r1', authorName: 'mod', message: 'seen', createdAt: new Date(2_500).toISOString() }],
  });
  await stores.tickets.linkPunishment(alpha, 't1', 'p2', 2_600);
  await stores.migrations.startUpload({
    id: 'u1',
    networkId: alpha,
    serverId: lobby,
    fileSize: 10,
    total: 5,
    nowMs: 1_000,
    lease: { owner: 'instance.1', expiresAtMs: 5_000 },
  });
  await stores.migrations.storeChunk('u1', 0, Buffer.from('{"players": []}'));
  await stores.migrations.markStored('u1', 1, 'queued', 1_000);
  await stores.migrations.report({
    networkId: alpha,
    serverId: lobby,
    status: 'done',
    message: 'all',
    reportedAt: 2_500,
  });
  const webhook = await stores.webhooks.create(
    alpha,
    {
      name: 'audit',
      url: 'http://127.0.0.1:9/x',
      events: ['punishment.created'],
      format: 'json',
      templates: {},
      maxAttempts: 3,
      enabled: true,
    },
    0,
  );
  await stores.webhookDeliveries.enqueue({
    webhookId: webhook,
    deliveryId: 'd1',
    event: 'punishment.created',
    body: '{}',
    nowMs: 0,
  });
  await stores.webhookLog.add({
    webhookId: webhook,
    deliveryId: 'd0',
    event: 'punishment.created',
    attemptedAtMs: 5,
    outcome: 'delivered',
    statusCode: 200,
    excerpt: '',
  });
  await stores.streamChanges.head(alpha);
  await stores.panelRoles.save(alpha, { name: 'helper', permissions: ['punishments.view'] }, 3_000);
  const account = await stores.panelAccounts.create({
    networkId: alpha,
    username: 'mod',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    role: 'helper',
    nowMs: 3_000,
  });
  await stores.panelSessions.create(Buffer.alloc(32, 7), {
    accountId: account!,
    networkId: alpha,
    createdAt: 3_000,
    expiresAt: 9_000,
    stage: 'code',
  });
  await stores.panelAccounts.setPendingTotp(account!, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 3_000);
  await stores.panelAccounts.confirmTotp(account!, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 59_000_000, 3_000);
  await stores.panelRecoveryCodes.replace(account!, [Buffer.alloc(32, 1), Buffer.alloc(32, 2)], 3_000);
  await stores.panelRecoveryCodes.use(account!, Buffer.alloc(32, 2), 4_000);
  await stores.panelDevices.remember(Buffer.alloc(32, 8), { accountId: account!, createdAt: 3_000, expiresAt: 99_000 });
  await stores.panelRoles.setTwoFactorRequired(alpha, 'helper', true, 3_000);
  await stores.auditLog.record({
    networkId: alpha,
    actor: 'mod',
    via: 'panel',
    action: 'punishment.pardon',
    subject: 'p1',
    atMs: 3_000,
  });
  await stores.appeals.open({
    networkId: alpha,
    punishmentId: 'p2',
    playerName: 'Notch',
    token: 'appeal-token',
    ticket: newAppealTicketFixture('appeal-1', 3_100, { subject: 'Appeal of p2', description: 'sorry' }),
  });
  await stores.appealCodes.issue({
    networkId: alpha,
    codeHash: Buffer.alloc(32, 7),
    punishmentId: 'p2',
    playerUuid: NOTCH,
    playerName: 'Notch',
    createdAtMs: 3_200,
    expiresAtMs: 3_200 + 86_400_000,
  });
  await stores.appeals.setUnappealable(alpha, 'p1', { markedBy: 'mod', markedAtMs: 3_300 });
  await stores.warningLadders.replace(alpha, {
    name: 'Chat conduct',
    warningLifetimeMs: 30 * 86_400_000,
    steps: [
      { warnings: 3, typeOrdinal: 1, duration: 86_400_000 },
      { warnings: 5, typeOrdinal: 2, duration: -1 },
    ],
    updatedAt: 3_400,
  });
  await stores.staffLimits.save(alpha, 'helper', { banMaxMs: 86_400_000, muteMaxMs: null, hourlyMax: 20 }, 3_500);
  await stores.immunity.saveRoleWeight(alpha, 'moderator', 20, 3_550);
  await stores.immunity.reportPlayerWeight(alpha, JEB, 10, 3_560);
  await stores.freezes.freeze({
    networkId: alpha,
    playerUuid: JEB,
    playerName: 'jeb_',
    reason: 'looking into it',
    issuerName: 'mod',
    serverName: 'lobby',
    frozenAt: 3_600,
  });
  await stores.staffNotes.add(alpha, {
    subjectKind: 'player',
    subjectId: JEB,
    authorName: 'mod',
    authorVia: 'panel',
    text: 'warned in chat',
    createdAtMs: 3_700,
  });
  await stores.chatLog.storeBatch(alpha, 'batch-1', 3_800, [
    { serverName: 'lobby', playerUuid: JEB, playerName: 'jeb_', kind: 'chat', text: 'hello', atMs: 3_750 },
  ]);
  await stores.chatLog.setRetentionDays(alpha, 14);
}

const sqliteTables = (db: Db) =>
  db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'service\\_%' ESCAPE '\\'",
    )
    .all()
    .map((row) => row.name);

/** The service's tables, not the records of the schema's steps nor the buckets only several PostgreSQL instances share. */
const copiedTables = (db: Db) =>
  sqliteTables(db).filter((table) => !table.startsWith('service_kysely_') && table !== 'service_rate_buckets');

/** A table's rows as comparable text: SQLite's 0/1 and PostgreSQL's booleans alike, keys in one order. */
function normalised(rows: Record<string, unknown>[], columns: string[]): string[] {
  return rows
    .map((row) =>
      JSON.stringify(
        columns.map((column) => {
          const value = row[column];
          if (typeof value === 'boolean') return value ? 1 : 0;
          if (Buffer.isBuffer(value)) return value.toString('hex');
          return value;
        }),
      ),
    )
    .sort();
}

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPgPool(database.url);
  // A file of the service as it runs: the one store's schema.
  const storage = await openSqliteStorage(sqlitePath);
  await populate(storage.stores);
  await storage.close();
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('bailiff service copy-to-postgres', () => {
  it('copies every table row for row, leaves the SQLite file as it was, and refuses a second copy without --force', async () => {
    const before = readFileSync(sqlitePath);
    const result = await copy([], database.url);
    expect(result.code).toBe(0);
    const pgTables = new Set(
      (
        await pool.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")
      ).rows.map((row) => row.name),
    );
    expect(result.stdout).toMatch(/service_punishments: 2501\/2501 rows/);
    expect(result.stdout).toMatch(/every count checked/);
    expect(readFileSync(sqlitePath).equals(before)).toBe(true);

    const db = openDb(sqlitePath, { readonly: true });
    try {
      const tables = copiedTables(db).filter((table) => pgTables.has(table));
      expect(tables.length).toBeGreaterThanOrEqual(19);
      // Tables PostgreSQL does not have (yet) are named, not silently left behind.
      const notCopied = copiedTables(db)
        .filter((table) => !pgTables.has(table))
        .sort();
      expect(result.stderr.trim().split('\n').filter(Boolean)).toEqual(
        notCopied.map((table) => `bailiff service copy-to-postgres: ${table} has no PostgreSQL table; not copied`),
      );
      for (const table of tables) {
        const sqliteRows = db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
        const columns = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map(
          (column) => column.name,
        );
        const pgRows = (await pool.query(`SELECT * FROM "${table}"`)).rows as Record<string, unknown>[];
        expect({ table, rows: normalised(pgRows, columns) }).toEqual({ table, rows: normalised(sqliteRows, columns) });
        expect(sqliteRows.length, table).toBeGreaterThan(0);
        expect(result.stdout).toContain(`${table}: ${sqliteRows.length}/${sqliteRows.length} rows`);
      }
    } finally {
      db.close();
    }

    // The copy goes on where the file stopped: new ids and sequences follow the copied ones.
    const inserted = await pool.query<{ id: number }>(
      `INSERT INTO service_webhook_log (webhook_id, delivery_id, event, attempted_at, outcome, excerpt)
         SELECT id, 'd2', 'punishment.created', 6, 'delivered', '' FROM service_webhooks RETURNING id`,
    );
    expect(inserted.rows[0]!.id).toBe(2);
    await pool.query(
      `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
         duration, status, created_at, updated_at) VALUES (1, 'after', '${NOTCH}', 'Notch', 'mod', 2, 'r', -1, 'active', 9, 9)`,
    );
    const sequences = await pool.query<{ sequence: number }>(
      "SELECT sequence FROM service_stream_changes WHERE network_id = 1 AND punishment_id = 'after'",
    );
    const alphaChanges = 2_500 - Math.ceil(2_500 / 3) + 1 + 1;
    expect(sequences.rows).toEqual([{ sequence: alphaChanges + 1 }]);

    const again = await copy([], database.url);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already holds rows \(service_networks\).*--force/);
    const forced = await copy(['--force'], database.url);
    expect(forced.code).toBe(0);
    expect((await pool.query("SELECT count(*)::int AS n FROM service_punishments WHERE id = 'after'")).rows).toEqual([
      { n: 0 },
    ]);
  });

  it('copies a file the last release made (the hand-written schema at its last step) as it is', async () => {
    const legacyPath = join(dir, 'legacy.db');
    writeLegacySqliteFile(legacyPath);
    const target = await createTestDatabase();
    const targetPool = createPgPool(target.url);
    try {
      const result = await copy([], target.url, legacyPath);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/every count checked/);
      const db = openDb(legacyPath, { readonly: true });
      try {
        // The fixture's rows of every kind arrived (see legacy-fixtures.ts): punishments, appeals, two-factor.
        for (const table of [
          'service_punishments',
          'service_appeals',
          'service_appeal_codes',
          'service_panel_recovery_codes',
        ]) {
          const rows = (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
          expect(rows, table).toBeGreaterThan(0);
          const copied = await targetPool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`);
          expect({ table, rows: copied.rows[0]!.n }).toEqual({ table, rows });
        }
      } finally {
        db.close();
      }
      // A service on the copy reads it through the one store.
      const storage = await openPostgresStorage(target.url);
      try {
        const alpha = (await storage.stores.networks.findNetwork('alpha'))!;
        expect(await storage.stores.appeals.byToken('first-link')).toMatchObject({ ticketId: 'a1', status: 'denied' });
        expect((await storage.stores.punishments.find(alpha, 'p2'))?.target_name).toBe('jeb_');
      } finally {
        await storage.close();
      }
    } finally {
      await targetPool.end();
      await target.drop();
    }
  });

  it('names the database without its password when it cannot connect', async () => {
    const url = new URL(database.url);
    url.password = 'hunter2-secret';
    url.port = '1';
    const result = await copy([], url.toString());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot open the PostgreSQL database/);
    expect(result.stderr).not.toContain('hunter2-secret');
  });

  it('does not start a service on an unreachable database, and names it without its password', async () => {
    const url = new URL(database.url);
    url.password = 'hunter2-secret';
    url.port = '1';
    const result = await service(['--port', '0'], url.toString());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot open the PostgreSQL database postgres:\/\/[^ ]*:\*\*\*@127\.0\.0\.1:1\//);
    expect(result.stdout + result.stderr).not.toContain('hunter2-secret');
  });
});
