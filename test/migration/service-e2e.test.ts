import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { openDb } from '../../src/db/open-db.js';
import { MigrationError, runMigration } from '../../src/migration/index.js';
import { createOutbox } from '../../src/outbox/index.js';
import { type RunningService, startService } from '../../src/service/index.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import {
  makeTempDir,
  uuidOf,
  vanillaDate,
  vanillaEntry,
  writeBannedIps,
  writeBannedPlayers,
  writeEssentialsUser,
} from './helpers/fixtures.js';

const NETWORK = 'survival';
const API_KEY = 'migration-test-key-000001';
const ADMIN_TOKEN = 'migration-test-admin-token';
const HOUR = 3_600_000;

let dir: string;
let cleanup: () => Promise<void>;
let service: RunningService;
let proxy: ContractProxy;
let client: ModerationApi;

async function admin(path: string): Promise<unknown> {
  const response = await fetch(`${service.url}/admin/v1/networks/${NETWORK}${path}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(response.status).toBe(200);
  return response.json();
}

type UploadRecord = { status: string; processed: number; total: number };

/** The service imports in the background: wait (bounded) until it says the upload is done. */
async function waitForImport(): Promise<UploadRecord> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { migrations } = (await admin('/migrations')) as { migrations: UploadRecord[] };
    const latest = migrations[0];
    if (latest && latest.status !== 'processing') return latest;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the service did not finish importing within 5 s');
}

async function migrateThroughOutbox(dbName: string, from: 'vanilla' | 'essentials' = 'vanilla', sourceDir = dir) {
  const db = openDb(join(dir, dbName));
  const outbox = createOutbox({ db, client });
  outbox.start();
  try {
    return await runMigration({
      from,
      dir: sourceDir,
      outFile: join(dir, `${dbName}.json`),
      client,
      outbox,
      drainTimeoutMs: 10_000,
    });
  } finally {
    await outbox.stop();
    db.close();
  }
}

const calls = () => proxy.log.requests;
const progressCalls = () =>
  calls()
    .filter((call) => call.path.endsWith('/migration/progress'))
    .map((call) => JSON.parse(call.body) as { status: string; message: string; processed?: number });

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  service = await startService({
    port: 0,
    dbPath: join(dir, 'service.db'),
    adminToken: ADMIN_TOKEN,
    maxUploadMb: 1,
    seed: { networks: [{ name: NETWORK, servers: [{ name: 'hub', apiKey: API_KEY }] }] },
  });
  proxy = await startContractProxy({ upstream: () => service.url, profile: 'reference' });
  client = createModerationClient({ baseUrl: proxy.url, apiKey: API_KEY });
});

afterAll(async () => {
  await proxy?.close();
  await service?.close();
  await cleanup?.();
});

describe('migration into the reference service', () => {
  it('imports vanilla bans that then show in recent and the admin API, with progress in order', async () => {
    const now = Date.now();
    const entries = [
      ...Array.from({ length: 30 }, (_, i) => vanillaEntry(i, now - HOUR - i * 1000, { source: 'Notch' })),
      ...Array.from({ length: 10 }, (_, i) =>
        vanillaEntry(100 + i, now - 2 * HOUR, { expires: vanillaDate(now + 24 * HOUR) }),
      ),
      ...Array.from({ length: 10 }, (_, i) =>
        vanillaEntry(200 + i, now - 3 * HOUR, { expires: vanillaDate(now - 2 * HOUR) }),
      ),
      vanillaEntry(300, now, { uuid: 'not-a-uuid' }),
    ];
    await writeBannedPlayers(dir, entries);
    await writeBannedIps(dir, ['10.1.1.1', '10.2.2.2'], now - HOUR);

    const summary = await migrateThroughOutbox('plugin-a.db');
    expect(summary).toMatchObject({ players: 50, punishments: 50, entriesRead: 53, serviceAnswer: { success: true } });
    expect(summary.skipped.map(({ reason, count }) => ({ reason, count }))).toEqual([
      { reason: 'IP ban (banned-ips.json): no player to attach it to', count: 2 },
      { reason: 'missing or malformed uuid', count: 1 },
    ]);

    expect(await waitForImport()).toMatchObject({ status: 'completed' });
    const { punishments } = await client.recentPunishments({ hours: 24 });
    const imported = punishments.filter((punishment) => punishment.id.startsWith('vanilla-'));
    expect(imported).toHaveLength(50);
    const byTarget = new Map(imported.map((punishment) => [punishment.targetUuid, punishment]));
    expect(byTarget.get(uuidOf(0))).toMatchObject({
      typeOrdinal: 2,
      duration: -1,
      issuerName: 'Notch',
      reason: 'reason 0',
      status: 'active',
      targetName: 'player0',
    });
    expect(byTarget.get(uuidOf(100))).toMatchObject({ duration: 26 * HOUR, status: 'active' });
    expect(byTarget.get(uuidOf(200))).toMatchObject({ duration: HOUR, status: 'expired' });

    const id = byTarget.get(uuidOf(5))!.id;
    expect(await admin(`/punishments/${id}`)).toMatchObject({
      punishment: { id, targetUuid: uuidOf(5), typeOrdinal: 2 },
    });

    const statuses = progressCalls().map((body) => body.status);
    expect(statuses[0]).toBe('building_json');
    expect(statuses.slice(-2)).toEqual(['uploading_json', 'completed']);
    expect(statuses.slice(0, -2).every((status) => status === 'building_json')).toBe(true);
    const paths = calls().map((call) => call.path.split('/').slice(-2).join('/'));
    const uploadAt = paths.indexOf('migration/upload');
    expect(paths.lastIndexOf('migration/progress', uploadAt)).toBeGreaterThan(-1);
    expect(progressCalls().at(-1)?.message).toMatch(/^Uploaded 50 players and 50 punishments \(3 entries skipped\)/);
  });

  it('explains a 413 when the file is larger than the service accepts, and reports failed', async () => {
    calls().length = 0;
    const created = Date.now() - HOUR;
    await writeBannedPlayers(
      dir,
      Array.from({ length: 10_000 }, (_, i) => vanillaEntry(i, created)),
    );
    await writeBannedIps(dir, [], created);

    const error = await migrateThroughOutbox('plugin-b.db').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toMatch(
      /^The migration file \(\d\.\d MB\) is larger than the service accepts \(413\): split it or raise the service's --max-upload-mb\.$/,
    );
    expect(calls().find((call) => call.path.endsWith('/migration/upload'))?.status).toBe(413);
    const last = progressCalls().at(-1);
    expect(last).toEqual({ status: 'failed', message: (error as MigrationError).message });
    expect(JSON.stringify(calls())).not.toContain(API_KEY);
  });

  it('imports EssentialsX bans and mutes as Manual Ban and Manual Mute', async () => {
    const now = Date.now();
    const server = join(dir, 'essentials-server');
    const savedAt = now - HOUR;
    await writeEssentialsUser(
      server,
      `${uuidOf(900)}.yml`,
      'last-account-name: Griefer\nban:\n  reason: griefing spawn\n  timeout: 0\n',
      savedAt,
    );
    await writeEssentialsUser(
      server,
      `${uuidOf(901)}.yml`,
      `last-account-name: Spammer\nmute: true\nmuteReason: caps\ntimestamps:\n  mute: ${now + 24 * HOUR}\n`,
      savedAt,
    );
    await writeEssentialsUser(server, `${uuidOf(902)}.yml`, 'last-account-name: Quiet\nmute: false\n', savedAt);

    const summary = await migrateThroughOutbox('plugin-c.db', 'essentials', join(server, 'plugins', 'Essentials'));
    expect(summary).toMatchObject({ players: 2, punishments: 2, entriesRead: 3, skipped: [] });
    expect(await waitForImport()).toMatchObject({ status: 'completed' });
    const { punishments } = await client.recentPunishments({ hours: 24 });
    expect(punishments.find((punishment) => punishment.targetUuid === uuidOf(900))).toMatchObject({
      typeOrdinal: 2,
      reason: 'griefing spawn',
      duration: -1,
      targetName: 'Griefer',
      status: 'active',
    });
    expect(punishments.find((punishment) => punishment.targetUuid === uuidOf(901))).toMatchObject({
      typeOrdinal: 1,
      reason: 'caps',
      status: 'active',
    });
  });
});
