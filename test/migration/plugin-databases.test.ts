import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { runMigration } from '../../src/migration/index.js';
import type { DatabaseSourceKind } from '../../src/migration/types.js';
import { type RunningService, startService } from '../../src/service/index.js';
import { type MariaDbServer, startMariaDbServer, stopMariaDbServer } from '../support/mariadb-server.js';
import { makeTempDir } from './helpers/fixtures.js';
import {
  ADVANCEDBAN_SCHEMA,
  BANMANAGER_SCHEMA,
  LIBERTYBANS_SCHEMA,
  LITEBANS_SCHEMA,
} from './helpers/plugin-schemas.js';

const NETWORK = 'survival';
const API_KEY = 'plugin-import-test-key-0001';
const ADMIN_TOKEN = 'plugin-import-admin-token';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ALICE = '0a11ce00-0000-4000-8000-000000000001';
const BOB = '0b0b0000-0000-4000-8000-000000000002';
const CAROL = '0ca20100-0000-4000-8000-000000000003';
const DAVE = '0da7e000-0000-4000-8000-000000000004';
const MOD = '000d0000-0000-4000-8000-000000000005';
const hex = (uuid: string) => uuid.replaceAll('-', '');

let dir: string;
let cleanup: () => Promise<void>;
let mariadb: MariaDbServer;
let service: RunningService;
let client: ModerationApi;
const now = Date.now();

async function admin(path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.url}/admin/v1/networks/${NETWORK}${path}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

type UploadRecord = { id: string; status: string; message: string };

async function waitForImport(uploadId: string): Promise<UploadRecord> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const { migrations } = (await admin('/migrations')) as { migrations: UploadRecord[] };
    const upload = migrations.find((entry) => entry.id === uploadId);
    if (upload && upload.status !== 'processing') return upload;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the service did not finish importing upload ${uploadId} within 10 s`);
}

/** A database of its own on the test MariaDB, with the plugin's tables and these rows. */
async function pluginDatabase(name: string, statements: string[]): Promise<string> {
  const connection = await mysql.createConnection({ uri: mariadb.url, multipleStatements: false });
  try {
    await connection.query(`CREATE DATABASE ${name}`);
    await connection.query(`USE ${name}`);
    for (const statement of statements) await connection.query(statement);
  } finally {
    await connection.end();
  }
  // Any password works (the test server has no grant tables); one is given as an owner would.
  return `mysql://bailiff:secret-password@127.0.0.1:${mariadb.port}/${name}`;
}

async function migrate(from: DatabaseSourceKind, databaseUrl: string, dryRun = false) {
  return runMigration({
    from,
    databaseUrl,
    outFile: join(dir, `${from}-${Date.now()}.json`),
    dryRun,
    ...(dryRun ? {} : { client }),
    drainTimeoutMs: 10_000,
  });
}

async function punishment(id: string) {
  return (await admin(`/punishments/${id}`)) as {
    punishment: Record<string, unknown>;
    pardon: { issuerName: string; reason: string; pardonedAt: string } | null;
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  mariadb = await startMariaDbServer();
  service = await startService({
    port: 0,
    dbPath: join(dir, 'service.db'),
    adminToken: ADMIN_TOKEN,
    seed: { networks: [{ name: NETWORK, servers: [{ name: 'hub', apiKey: API_KEY }] }] },
  });
  client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
}, 60_000);

afterAll(async () => {
  await service?.close();
  if (mariadb) await stopMariaDbServer(mariadb);
  await cleanup?.();
});

const liteBansRows = () => {
  const insert = (table: string, values: Record<string, unknown>) => {
    const columns = Object.keys(values);
    const literal = (value: unknown) =>
      value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => literal(values[c])).join(', ')})`;
  };
  const base = { banned_by_uuid: MOD, banned_by_name: 'Moderator', server_origin: 'lobby', server_scope: '*' };
  return [
    insert('litebans_history', { name: 'alice_old', uuid: ALICE, ip: '203.0.113.1', date: '2024-01-01 00:00:00' }),
    insert('litebans_history', { name: 'Alice', uuid: ALICE, ip: '203.0.113.1', date: '2025-01-01 00:00:00' }),
    insert('litebans_history', { name: 'Bob', uuid: BOB, ip: '203.0.113.2' }),
    insert('litebans_history', { name: 'Carol', uuid: CAROL, ip: '203.0.113.3' }),
    insert('litebans_history', { name: 'Dave', uuid: DAVE, ip: '203.0.113.4' }),
    // 1: permanent ban in force
    insert('litebans_bans', {
      ...base,
      uuid: ALICE,
      ip: '203.0.113.1',
      reason: 'X-ray',
      time: now - 2 * DAY,
      until: -1,
    }),
    // 2: temporary ban in force
    insert('litebans_bans', {
      ...base,
      uuid: BOB,
      ip: '203.0.113.2',
      reason: 'Spam',
      time: now - HOUR,
      until: now + DAY,
    }),
    // 3: lifted by an admin, with a reason
    insert('litebans_bans', {
      ...base,
      uuid: CAROL,
      reason: 'Griefing',
      time: now - 3 * DAY,
      until: -1,
      active: 0,
      removed_by_uuid: MOD,
      removed_by_name: 'Admin',
      removed_by_reason: 'Appeal accepted',
      removed_by_date: '2025-06-01 12:00:00',
    }),
    // 4: ran out
    insert('litebans_bans', {
      ...base,
      uuid: DAVE,
      reason: 'Toxicity',
      time: now - 3 * DAY,
      until: now - 2 * DAY,
      active: 0,
      removed_by_name: '#expired',
    }),
    // 5: IP ban of a player's address; 6: an address-only wildcard ban; 7: nothing to attach it to
    insert('litebans_bans', {
      ...base,
      uuid: DAVE,
      ip: '198.51.100.9',
      reason: 'Alts',
      time: now - HOUR,
      until: -1,
      ipban: 1,
    }),
    insert('litebans_bans', {
      ...base,
      uuid: '#',
      ip: '192.0.2.*',
      reason: 'Bot network',
      time: now - HOUR,
      until: -1,
      ipban: 1,
      ipban_wildcard: 1,
    }),
    insert('litebans_bans', { ...base, uuid: null, ip: null, reason: 'broken row', time: now, until: -1 }),
    insert('litebans_mutes', { ...base, uuid: BOB, reason: 'Caps', time: now - HOUR, until: now + HOUR }),
    insert('litebans_warnings', { ...base, uuid: ALICE, reason: 'Language', time: now - DAY, until: -1, warned: 1 }),
    insert('litebans_kicks', { ...base, uuid: DAVE, reason: 'AFK', time: now - 5 * HOUR, until: 0 }),
  ];
};

describe('bailiff migrate --from litebans', () => {
  let url: string;
  beforeAll(async () => {
    url = await pluginDatabase('litebans', [...LITEBANS_SCHEMA, ...liteBansRows()]);
  });

  it('reports counts and what cannot be mapped in a dry run, uploading nothing', async () => {
    const summary = await migrate('litebans', url, true);
    expect(summary).toMatchObject({ dryRun: true, punishments: 9, entriesRead: 10 });
    expect(summary.serviceAnswer).toBeUndefined();
    expect(summary.byKind).toEqual({ bans: 4, 'ip bans': 2, mutes: 1, warnings: 1, kicks: 1, pardoned: 1 });
    expect(summary.skipped).toEqual([
      {
        reason: 'no player UUID and no IP address to attach it to',
        count: 1,
        examples: ['litebans_bans #7'],
      },
    ]);
    const { migrations } = (await admin('/migrations')) as { migrations: unknown[] };
    expect(migrations).toEqual([]);
  });

  it('imports bans, IP bans, mutes, warnings, kicks and pardons, then nothing twice', async () => {
    const summary = await migrate('litebans', url);
    expect(summary.serviceAnswer).toMatchObject({ success: true });
    const first = await waitForImport(String(summary.serviceAnswer!.uploadId));
    expect(first.message).toContain('9 punishments (0 already known');

    expect((await punishment('litebans-bans-1')).punishment).toMatchObject({
      targetUuid: ALICE,
      targetName: 'Alice',
      typeOrdinal: 2,
      duration: -1,
      reason: 'X-ray',
      issuerName: 'Moderator',
      status: 'active',
      createdAt: new Date(now - 2 * DAY).toISOString(),
    });
    expect((await punishment('litebans-bans-2')).punishment).toMatchObject({ duration: DAY + HOUR, status: 'active' });
    const carol = await punishment('litebans-bans-3');
    expect(carol.punishment).toMatchObject({ targetName: 'Carol', status: 'pardoned' });
    expect(carol.pardon).toMatchObject({
      issuerName: 'Admin',
      reason: 'Appeal accepted',
      pardonedAt: new Date('2025-06-01T12:00:00Z').toISOString(),
    });
    expect(await punishment('litebans-bans-4')).toMatchObject({ punishment: { status: 'expired' }, pardon: null });
    expect((await punishment('litebans-bans-5')).punishment).toMatchObject({
      targetUuid: DAVE,
      data: { ipAddress: '198.51.100.9' },
      status: 'active',
    });
    expect((await punishment('litebans-bans-6')).punishment).toMatchObject({
      targetUuid: '00000000-0000-0000-0000-000000000000',
      data: { ipAddress: '192.0.2.0/24' },
    });
    expect((await punishment('litebans-mutes-1')).punishment).toMatchObject({ typeOrdinal: 1, duration: 2 * HOUR });
    expect((await punishment('litebans-warnings-1')).punishment).toMatchObject({
      typeOrdinal: 0,
      status: 'warning',
      reason: 'Language',
    });
    expect((await punishment('litebans-kicks-1')).punishment).toMatchObject({
      typeOrdinal: 0,
      duration: 0,
      status: 'expired',
    });

    const again = await migrate('litebans', url);
    const second = await waitForImport(String(again.serviceAnswer!.uploadId));
    expect(second.message).toContain('0 punishments (9 already known');
  });

  it('names a missing table and a wrong scheme', async () => {
    await expect(migrate('litebans', url.replace('/litebans', '/mysql'), true)).rejects.toThrow(
      /the litebans table litebans_bans is not in this database/,
    );
    await expect(migrate('litebans', 'sqlite:///tmp/x.db', true)).rejects.toThrow(
      /expected mysql:\/\/, mariadb:\/\/ or postgres:\/\//,
    );
  });
});
