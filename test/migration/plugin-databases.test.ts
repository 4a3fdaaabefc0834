import { readFileSync } from 'node:fs';
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
import { runCli } from './helpers/run-cli.js';

const NETWORK = 'survival';
const API_KEY = 'plugin-import-test-key-0001';
const ADMIN_TOKEN = 'plugin-import-admin-token';
const OTHER_NETWORK = 'creative';
const OTHER_API_KEY = 'plugin-import-other-key-0001';
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

async function admin(path: string, network = NETWORK): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.url}/admin/v1/networks/${network}${path}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

type UploadRecord = { id: string; status: string; message: string };

async function waitForImport(uploadId: string, network = NETWORK): Promise<UploadRecord> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const { migrations } = (await admin('/migrations', network)) as { migrations: UploadRecord[] };
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

async function punishment(id: string, network = NETWORK) {
  return (await admin(`/punishments/${id}`, network)) as {
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
    seed: {
      networks: [
        { name: NETWORK, servers: [{ name: 'hub', apiKey: API_KEY }] },
        { name: OTHER_NETWORK, servers: [{ name: 'creative', apiKey: OTHER_API_KEY }] },
      ],
    },
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

async function importAll(from: DatabaseSourceKind, url: string) {
  const summary = await migrate(from, url);
  const upload = await waitForImport(String(summary.serviceAnswer!.uploadId));
  return { summary, upload };
}

describe('bailiff migrate --from advancedban', () => {
  it('imports the history, in force or lifted (who and why unknown), and skips notes', async () => {
    const columns = '(name, uuid, reason, operator, punishmentType, start, end, calculation)';
    const row = (name: string, uuid: string, reason: string, type: string, start: number, end: number) =>
      `('${name}', '${uuid}', '${reason}', 'Moderator', '${type}', ${start}, ${end}, NULL)`;
    const history = [
      row('Alice', hex(ALICE), 'Hacking', 'BAN', now - DAY, -1),
      row('Bob', hex(BOB), 'Spam', 'TEMP_MUTE', now - HOUR, now + HOUR),
      row('Carol', hex(CAROL), 'Griefing', 'BAN', now - 2 * DAY, -1),
      row('Dave', '198.51.100.20', 'Alts', 'IP_BAN', now - HOUR, -1),
      row('Dave', hex(DAVE), 'Language', 'WARNING', now - HOUR, -1),
      row('Dave', hex(DAVE), 'AFK', 'KICK', now - HOUR, -1),
      row('Dave', hex(DAVE), 'watch him', 'NOTE', now - HOUR, -1),
    ];
    const inForce = [history[0], history[1], history[3], history[4]];
    const url = await pluginDatabase('advancedban', [
      ...ADVANCEDBAN_SCHEMA,
      `INSERT INTO PunishmentHistory ${columns} VALUES ${history.join(', ')}`,
      `INSERT INTO Punishments ${columns} VALUES ${inForce.join(', ')}`,
    ]);
    const { summary, upload } = await importAll('advancedban', url);
    expect(summary.skipped.map(({ reason, count }) => ({ reason, count }))).toEqual([
      { reason: 'AdvancedBan note (not a punishment)', count: 1 },
    ]);
    expect(upload.message).toContain('6 punishments (0 already known');
    expect((await punishment('advancedban-history-1')).punishment).toMatchObject({
      targetUuid: ALICE,
      targetName: 'Alice',
      typeOrdinal: 2,
      status: 'active',
      issuerName: 'Moderator',
    });
    expect((await punishment('advancedban-history-2')).punishment).toMatchObject({
      typeOrdinal: 1,
      duration: 2 * HOUR,
    });
    expect(await punishment('advancedban-history-3')).toMatchObject({
      punishment: { status: 'pardoned' },
      pardon: { issuerName: 'Unknown', reason: 'Lifted in AdvancedBan, which records neither who nor why' },
    });
    expect((await punishment('advancedban-history-4')).punishment).toMatchObject({
      data: { ipAddress: '198.51.100.20' },
      status: 'active',
    });
    expect((await punishment('advancedban-history-5')).punishment).toMatchObject({ status: 'warning' });
    expect((await punishment('advancedban-history-6')).punishment).toMatchObject({ status: 'expired', duration: 0 });
  });
});

describe('bailiff migrate --from libertybans', () => {
  it('imports punishments with victims, operators and undo records', async () => {
    const s = (ms: number) => Math.floor(ms / 1000);
    const uuid = (value: string) => `UNHEX('${hex(value)}')`;
    const consoleId = `UNHEX('${'0'.repeat(32)}')`;
    const noAddress = `UNHEX('${'0'.repeat(8)}')`;
    const url = await pluginDatabase('libertybans', [
      ...LIBERTYBANS_SCHEMA,
      `INSERT INTO libertybans_names VALUES (${uuid(ALICE)}, 'Alice', ${s(now)}), (${uuid(BOB)}, 'Bob', ${s(now)}),
        (${uuid(CAROL)}, 'Carol', ${s(now)}), (${uuid(MOD)}, 'Moderator', ${s(now)})`,
      `INSERT INTO libertybans_victims VALUES (1, 0, ${uuid(ALICE)}, ${noAddress}), (2, 0, ${uuid(BOB)}, ${noAddress}),
        (3, 0, ${uuid(CAROL)}, ${noAddress}), (4, 1, ${consoleId}, INET6_ATON('203.0.113.50'))`,
      `INSERT INTO libertybans_punishments (id, type, operator, reason, scope, start, end) VALUES
        (1, 0, ${uuid(MOD)}, 'Cheating', '', ${s(now - DAY)}, 0),
        (2, 1, ${consoleId}, 'Spam', '', ${s(now - HOUR)}, ${s(now + HOUR)}),
        (3, 0, ${uuid(MOD)}, 'Griefing', '', ${s(now - 2 * DAY)}, 0),
        (4, 0, ${uuid(MOD)}, 'Bots', '', ${s(now - HOUR)}, 0),
        (5, 2, ${uuid(MOD)}, 'Language', '', ${s(now - HOUR)}, 0),
        (6, 3, ${uuid(MOD)}, 'AFK', '', ${s(now - HOUR)}, 0)`,
      'INSERT INTO libertybans_history VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 1), (6, 2)',
      'INSERT INTO libertybans_bans VALUES (1, 1), (4, 4)',
      'INSERT INTO libertybans_mutes VALUES (2, 2)',
      'INSERT INTO libertybans_warns VALUES (5, 1)',
      `INSERT INTO libertybans_undone VALUES (3, ${uuid(MOD)}, 'Appeal accepted', ${s(now - DAY)})`,
    ]);
    const { upload } = await importAll('libertybans', url);
    expect(upload.message).toContain('6 punishments (0 already known');
    expect((await punishment('libertybans-1')).punishment).toMatchObject({
      targetUuid: ALICE,
      targetName: 'Alice',
      issuerName: 'Moderator',
      typeOrdinal: 2,
      duration: -1,
      status: 'active',
    });
    expect((await punishment('libertybans-2')).punishment).toMatchObject({ typeOrdinal: 1, issuerName: 'Console' });
    expect(await punishment('libertybans-3')).toMatchObject({
      punishment: { status: 'pardoned' },
      pardon: {
        issuerName: 'Moderator',
        reason: 'Appeal accepted',
        pardonedAt: new Date(s(now - DAY) * 1000).toISOString(),
      },
    });
    expect((await punishment('libertybans-4')).punishment).toMatchObject({ data: { ipAddress: '203.0.113.50' } });
    expect((await punishment('libertybans-5')).punishment).toMatchObject({ status: 'warning' });
    expect((await punishment('libertybans-6')).punishment).toMatchObject({ typeOrdinal: 0, status: 'expired' });
  });
});

describe('bailiff migrate --from banmanager', () => {
  it('imports bans, records (lifted or run out), IP bans, mutes, warnings and kicks', async () => {
    const s = (ms: number) => Math.floor(ms / 1000);
    const uuid = (value: string) => `UNHEX('${hex(value)}')`;
    const ip = (text: string) => `INET6_ATON('${text}')`;
    const url = await pluginDatabase('banmanager', [
      ...BANMANAGER_SCHEMA,
      `INSERT INTO bm_players VALUES (${uuid(ALICE)}, 'Alice', ${ip('203.0.113.1')}, ${s(now)}),
        (${uuid(BOB)}, 'Bob', ${ip('203.0.113.2')}, ${s(now)}), (${uuid(CAROL)}, 'Carol', ${ip('203.0.113.3')}, ${s(now)}),
        (${uuid(DAVE)}, 'Dave', ${ip('203.0.113.4')}, ${s(now)}), (${uuid(MOD)}, 'Moderator', ${ip('127.0.0.1')}, ${s(now)})`,
      `INSERT INTO bm_player_bans (player_id, reason, actor_id, created, updated, expires, silent) VALUES
        (${uuid(ALICE)}, 'Cheating', ${uuid(MOD)}, ${s(now - DAY)}, ${s(now - DAY)}, 0, 0)`,
      `INSERT INTO bm_player_ban_records (player_id, reason, expired, actor_id, pastActor_id, pastCreated, created, createdReason, silent) VALUES
        (${uuid(CAROL)}, 'Griefing', 0, ${uuid(MOD)}, ${uuid(MOD)}, ${s(now - 3 * DAY)}, ${s(now - DAY)}, 'Appeal accepted', 0),
        (${uuid(DAVE)}, 'Toxicity', ${s(now - 2 * DAY)}, ${uuid(MOD)}, ${uuid(MOD)}, ${s(now - 3 * DAY)}, ${s(now - 2 * DAY)}, '', 0)`,
      `INSERT INTO bm_ip_bans (ip, reason, actor_id, created, updated, expires, silent) VALUES
        (${ip('198.51.100.30')}, 'Bots', ${uuid(MOD)}, ${s(now - HOUR)}, ${s(now - HOUR)}, 0, 0)`,
      `INSERT INTO bm_player_mutes (player_id, reason, actor_id, created, updated, expires, silent, soft) VALUES
        (${uuid(BOB)}, 'Spam', ${uuid(MOD)}, ${s(now - HOUR)}, ${s(now - HOUR)}, ${s(now + HOUR)}, 0, 0)`,
      `INSERT INTO bm_player_warnings (player_id, reason, actor_id, created, expires, \`read\`, points) VALUES
        (${uuid(ALICE)}, 'Language', ${uuid(MOD)}, ${s(now - HOUR)}, 0, 1, 1)`,
      `INSERT INTO bm_player_kicks (player_id, reason, actor_id, created) VALUES (${uuid(DAVE)}, 'AFK', ${uuid(MOD)}, ${s(now - HOUR)})`,
    ]);
    const { summary, upload } = await importAll('banmanager', url);
    expect(summary.byKind).toEqual({ bans: 3, 'ip bans': 1, mutes: 1, warnings: 1, kicks: 1, pardoned: 1 });
    expect(upload.message).toContain('7 punishments (0 already known');
    expect((await punishment('banmanager-player_bans-1')).punishment).toMatchObject({
      targetUuid: ALICE,
      targetName: 'Alice',
      issuerName: 'Moderator',
      duration: -1,
      status: 'active',
    });
    expect(await punishment('banmanager-player_ban_records-1')).toMatchObject({
      punishment: { targetName: 'Carol', status: 'pardoned', reason: 'Griefing' },
      pardon: { issuerName: 'Moderator', reason: 'Appeal accepted' },
    });
    expect(await punishment('banmanager-player_ban_records-2')).toMatchObject({
      punishment: { status: 'expired', duration: DAY },
      pardon: null,
    });
    expect((await punishment('banmanager-ip_bans-1')).punishment).toMatchObject({
      data: { ipAddress: '198.51.100.30' },
    });
    expect((await punishment('banmanager-player_mutes-1')).punishment).toMatchObject({
      typeOrdinal: 1,
      status: 'active',
    });
    expect((await punishment('banmanager-player_warnings-1')).punishment).toMatchObject({ status: 'warning' });
    expect((await punishment('banmanager-player_kicks-1')).punishment).toMatchObject({ typeOrdinal: 0 });
  });
});

describe('bailiff migrate --to json, and --from json', () => {
  it("exports a network's punishments to a file that imports back the same punishments, once", async () => {
    const file = join(dir, 'survival-export.json');
    const exported = await runCli(
      ['migrate', '--to', 'json', '--service-db', join(dir, 'service.db'), '--network', NETWORK, '--out', file],
      dir,
    );
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const count = Number(/punishments: +(\d+)/.exec(exported.stdout)?.[1]);
    expect(count).toBeGreaterThanOrEqual(9 + 6 + 6 + 7);
    const { players } = JSON.parse(readFileSync(file, 'utf8')) as { players: { punishments: { id: string }[] }[] };
    const ids = players.map((player) => player.punishments[0]!.id);
    expect(ids).toHaveLength(count);
    expect(ids).toContain('litebans-bans-3');

    const cli = (network: string, key: string) => [
      'migrate',
      '--from',
      'json',
      '--file',
      file,
      '--api-url',
      service.url,
      '--api-key',
      key,
      '--db',
      join(dir, `${network}-outbox.db`),
    ];
    const imported = await runCli(cli(OTHER_NETWORK, OTHER_API_KEY), dir);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const { migrations } = (await admin('/migrations', OTHER_NETWORK)) as { migrations: UploadRecord[] };
    const upload = await waitForImport(migrations[0]!.id, OTHER_NETWORK);
    expect(upload.message).toContain(`${count} punishments (0 already known, 0 invalid`);
    for (const id of ids) {
      const original = await punishment(id);
      const copy = await punishment(id, OTHER_NETWORK);
      const fields = ({ punishment: p, pardon }: typeof original) => ({
        ...p,
        started: undefined,
        updatedAt: undefined,
        pardon: pardon && { issuerName: pardon.issuerName, reason: pardon.reason, pardonedAt: pardon.pardonedAt },
      });
      expect(fields(copy), id).toEqual(fields(original));
    }

    // Where it came from, it adds nothing.
    const again = await runCli(cli(NETWORK, API_KEY), dir);
    expect(again.code).toBe(0);
    const latest = (await admin('/migrations')) as { migrations: UploadRecord[] };
    const back = await waitForImport(latest.migrations[0]!.id);
    expect(back.message).toContain(`0 punishments (${count} already known`);
    // Three runs of the built CLI, each a node process starting: on a loaded machine that passes 20 s.
  }, 120_000);

  it('says what is missing for --to json', async () => {
    const result = await runCli(['migrate', '--to', 'json', '--network', NETWORK, '--out', 'x.json'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--service-db: expected the service's SQLite file or postgres:// URL");
    const missing = await runCli(
      [
        'migrate',
        '--to',
        'json',
        '--service-db',
        join(dir, 'service.db'),
        '--network',
        'nope',
        '--out',
        join(dir, 'x.json'),
      ],
      dir,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--network: no network named "nope" in this database');
  }, 60_000);
});
