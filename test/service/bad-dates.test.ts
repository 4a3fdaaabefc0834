import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentResponse } from '../../src/contract/schemas.js';
import { type Db, openDb } from '../../src/db/open-db.js';
import type { Logger } from '../../src/ports/logger.js';
import { parseSeed } from '../../src/service/index.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';
import {
  errorOf,
  JEB,
  KEY_A1,
  NOTCH,
  START_MS,
  startTestService,
  type TestService,
  testSeed,
  ticketFixture,
} from './helpers/fixture.js';
import { firstFrames } from './helpers/stream-client.js';

// Issue 12, cases 1 and 2: an epoch-ms date beyond what a JavaScript Date holds.
const BEYOND_DATE_MS = 8_640_000_000_000_001;
const NEW_PLAYER = '4566e69f-c907-48ee-8d71-d7ba5aa00d20';

const logged: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
const recordingLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (message, fields) => logged.push({ level: 'warn', message, fields }),
  error: (message, fields) => logged.push({ level: 'error', message, fields }),
};

let directory: string;
let t: TestService;
let oldDb: Db;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bailiff-bad-dates-'));
  const dbPath = join(directory, 'service.db');
  t = await startTestService({ dbPath, logger: recordingLogger });
  oldDb = openDb(dbPath);
});
afterAll(async () => {
  oldDb?.close();
  await t?.close();
  await rm(directory, { recursive: true, force: true });
});

function upload(content: string) {
  const form = new FormData();
  form.append('migrationFile', new Blob([content], { type: 'application/json' }), 'export.json');
  return fetch(`${t.base}/migration/upload`, { method: 'POST', body: form, headers: { 'x-api-key': KEY_A1 } });
}

async function importFinished(uploadId: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const body = (await (await t.admin('GET', '/networks/alpha/migrations')).json()) as {
      migrations: { id: string; status: string; message: string }[];
    };
    const record = body.migrations.find((migration) => migration.id === uploadId);
    if (record && record.status !== 'processing') return record;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`import ${uploadId} did not finish within 5 s`);
}

const recentIds = async () => {
  const response = await t.call('GET', '/punishments/recent?hours=8760');
  expect(response.status).toBe(200);
  return recentResponse.parse(await response.json()).punishments.map((punishment) => punishment.id);
};

const snapshotIds = async () => {
  const [hello, snapshot] = await firstFrames(t.service.url, KEY_A1);
  expect(hello).toEqual({ type: 'hello', protocol: 1 });
  if (snapshot?.type !== 'snapshot') throw new Error(`expected a snapshot, got ${JSON.stringify(snapshot)}`);
  return snapshot.punishments.map((punishment) => punishment.id);
};

const BEYOND_ISO = '+275760-09-13T00:00:00.001Z';

describe('dates beyond what a Date holds', () => {
  it('are a 400 naming the field at the API and the admin API, and a seed error naming the path', async () => {
    const ack = await t.call('POST', '/punishments/acknowledge', {
      punishmentId: 'any',
      playerUuid: NOTCH,
      success: true,
      executedAt: BEYOND_ISO,
    });
    expect((await errorOf(ack)).message).toBe('executedAt: must be an ISO 8601 timestamp');
    const notices = await t.call('POST', '/notifications/acknowledge', {
      playerUuid: NOTCH,
      notificationIds: ['x'],
      acknowledgedAt: BEYOND_ISO,
    });
    expect((await errorOf(notices)).message).toBe('acknowledgedAt: must be an ISO 8601 timestamp');
    const ticket = await t.admin(
      'POST',
      '/networks/alpha/tickets',
      ticketFixture({ id: 'T-9', createdAt: BEYOND_ISO, updatedAt: BEYOND_ISO }),
    );
    expect((await errorOf(ticket)).message).toBe('createdAt: must be an ISO 8601 timestamp');
    const seed = testSeed();
    seed.networks[1]!.punishments![0]!.createdAt = BEYOND_ISO;
    expect(() => parseSeed(seed)).toThrow('seed: networks[1].punishments[0].createdAt: must be an ISO 8601 timestamp');
  });

  it('skips and counts a migration record with such a date; the rest imports and every read still answers', async () => {
    const file = JSON.stringify({
      players: [
        {
          minecraftUuid: NEW_PLAYER,
          usernames: [{ username: 'Kept', date: START_MS }],
          punishments: [
            { id: 'beyond-issued', typeOrdinal: 2, issued: BEYOND_DATE_MS, duration: -1, active: true },
            { id: 'fine-issued', typeOrdinal: 2, issued: START_MS - 1000, duration: -1, active: true },
          ],
        },
        { minecraftUuid: JEB, usernames: [{ username: 'x', date: -BEYOND_DATE_MS }], punishments: [] },
      ],
    });
    const response = await upload(file);
    expect(response.status).toBe(200);
    const { uploadId } = (await response.json()) as { uploadId: string };
    expect((await importFinished(uploadId)).message).toBe(
      'imported 0 players and 0 punishments (0 already known, 2 invalid records skipped)',
    );
    const rows = oldDb.prepare("SELECT id FROM service_punishments WHERE id IN ('beyond-issued', 'fine-issued')").all();
    expect(rows).toEqual([]);
    expect(await recentIds()).not.toContain('beyond-issued');
    await snapshotIds();
  });

  describe('a row an older version already stored', () => {
    beforeAll(() => {
      const alpha = oldDb.prepare("SELECT id FROM service_networks WHERE name = 'alpha'").get() as { id: number };
      const insert = oldDb.prepare(
        `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
           duration, status, created_at, started_at, updated_at)
         VALUES (?, ?, ?, 'Notch', 'old', 2, 'old row', -1, 'active', ?, ?, ?)`,
      );
      insert.run(alpha.id, 'bad-created', NOTCH, BEYOND_DATE_MS, null, START_MS);
      insert.run(alpha.id, 'bad-started', NOTCH, START_MS - 5000, -BEYOND_DATE_MS, START_MS);
      insert.run(alpha.id, 'good-old', NOTCH, START_MS - 6000, null, START_MS);
    });

    it('recent serves the other rows and logs each bad row once', async () => {
      const before = logged.length;
      expect(await recentIds()).toEqual(expect.arrayContaining(['good-old']));
      const ids = await recentIds();
      expect(ids).not.toContain('bad-created');
      expect(ids).not.toContain('bad-started');
      const reports = logged.slice(before).filter((entry) => entry.level === 'error');
      expect(reports.map((entry) => entry.fields?.id).sort()).toEqual(['bad-created', 'bad-started']);
      expect(JSON.stringify(reports)).not.toContain(KEY_A1);
    });

    it('the stream snapshot serves the other active rows, again on the next connection', async () => {
      for (let connection = 0; connection < 2; connection += 1) {
        const ids = await snapshotIds();
        expect(ids).toContain('good-old');
        expect(ids).not.toContain('bad-created');
      }
      expect((await t.call('GET', '/punishments/types')).status).toBe(200);
    });

    it("the login check answers the player's other active punishments", async () => {
      const response = await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch' });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { activePunishments: { id: string }[] };
      const ids = body.activePunishments.map((punishment) => punishment.id);
      expect(ids).toContain('good-old');
      expect(ids).not.toContain('bad-created');
      expect(ids).not.toContain('bad-started');
    });

    it('the admin view shows the row and names the date it cannot show', async () => {
      const response = await t.admin('GET', '/networks/alpha/punishments/bad-created');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { punishment: Record<string, unknown> };
      expect(body.punishment).toMatchObject({
        id: 'bad-created',
        createdAt: null,
        status: 'active',
        dateProblems: [`createdAt: stored value ${BEYOND_DATE_MS} is outside the range of a date`],
      });
    });

    it('the admin can pardon it, which takes it out of the snapshot', async () => {
      const response = await t.admin('POST', '/networks/alpha/punishments/bad-created/status', { status: 'pardoned' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ changed: true, punishment: { status: 'pardoned' } });
      expect(await snapshotIds()).toContain('good-old');
    });
  });
});

describe('the punishment store', () => {
  it('refuses to store a date no Date holds, whatever path a value took to get there', async () => {
    const storage = await openSqliteStorage(':memory:');
    try {
      const store = storage.stores.punishments;
      const record = {
        networkId: await storage.stores.networks.ensureNetwork('alpha'),
        id: 'p',
        targetUuid: NOTCH,
        targetName: 'Notch',
        issuerName: 'mod',
        typeOrdinal: 2,
        reason: '',
        duration: -1,
        status: 'active',
        createdAt: BEYOND_DATE_MS,
      };
      await expect(store.insert(record)).rejects.toThrow(`createdAt: ${BEYOND_DATE_MS} is outside the range of a date`);
      await expect(store.insert({ ...record, createdAt: START_MS, startedAt: -BEYOND_DATE_MS })).rejects.toThrow(
        'started: -8640000000000001 is outside the range of a date',
      );
      expect(await store.find(record.networkId, 'p')).toBeUndefined();
    } finally {
      await storage.close();
    }
  });

  describe('a ticket or reply an older version stored with such a date', () => {
    beforeAll(() => {
      const alpha = oldDb.prepare("SELECT id FROM service_networks WHERE name = 'alpha'").get() as { id: number };
      const insertTicket = oldDb.prepare(
        `INSERT INTO service_tickets (network_id, id, type, subject, description, status, priority, creator_uuid,
           creator_name, reported_player_uuid, reported_player_name, tags, created_at, updated_at)
         VALUES (?, ?, 'report', 'old', 'old ticket', 'Open', 'low', ?, 'Jeb', NULL, NULL, '[]', ?, ?)`,
      );
      insertTicket.run(alpha.id, 'bad-ticket', JEB, BEYOND_DATE_MS, START_MS);
      insertTicket.run(alpha.id, 'good-ticket', JEB, START_MS - 1000, START_MS);
      oldDb
        .prepare(
          `INSERT INTO service_ticket_replies (network_id, ticket_id, id, author_name, message, created_at)
           VALUES (?, 'good-ticket', ?, 'staff', ?, ?)`,
        )
        .run(alpha.id, 'bad-reply', 'never shown', -BEYOND_DATE_MS);
    });

    it("the player's ticket list serves the other tickets", async () => {
      const before = logged.length;
      const response = await t.call('GET', `/tickets/player/${JEB}`);
      expect(response.status).toBe(200);
      const ids = ((await response.json()) as { tickets: { id: string }[] }).tickets.map((ticket) => ticket.id);
      expect(ids).toContain('good-ticket');
      expect(ids).not.toContain('bad-ticket');
      expect(logged.slice(before).some((entry) => entry.fields?.ticketId === 'bad-ticket')).toBe(true);
    });

    it('a ticket read leaves out the reply it cannot show, and names the date of a ticket it cannot show', async () => {
      const good = await t.call('GET', '/tickets/good-ticket');
      expect(good.status).toBe(200);
      const { ticket } = (await good.json()) as { ticket: { id: string; replies: { id: string }[] } };
      expect(ticket.id).toBe('good-ticket');
      expect(ticket.replies.map((reply) => reply.id)).not.toContain('bad-reply');
      const bad = await t.call('GET', '/tickets/bad-ticket');
      expect(bad.status).toBe(404);
      expect((await errorOf(bad)).message).toBe(
        'ticket bad-ticket cannot be shown: its stored createdAt is outside the range of a date',
      );
    });
  });
});
