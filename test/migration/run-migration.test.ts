import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { openDb } from '../../src/db/open-db.js';
import { buildMigrationFile } from '../../src/migration/build-file.js';
import { activePunishmentsOf, MigrationError, runMigration } from '../../src/migration/index.js';
import type { MigrationProgressEvent, MigrationSource } from '../../src/migration/types.js';
import { createOutbox } from '../../src/outbox/index.js';
import { fakeMigrationClient } from './helpers/fake-client.js';
import { fixedClock, recordingTimers } from './helpers/fake-ports.js';
import {
  makeTempDir,
  uuidOf,
  vanillaDate,
  vanillaEntry,
  writeBannedIps,
  writeBannedPlayers,
} from './helpers/fixtures.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const DRAIN_TIMEOUT_MS = 60_000;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

/** 10,000 entries: every 10th expired, every 100th malformed, the rest permanent. */
function tenThousandEntries() {
  return Array.from({ length: 10_000 }, (_, i) => {
    if (i % 100 === 99) return vanillaEntry(i, NOW - DAY, { created: 'not a date' });
    if (i % 10 === 9) return vanillaEntry(i, NOW - 3 * DAY, { expires: vanillaDate(NOW - 2 * DAY) });
    return vanillaEntry(i, NOW - DAY);
  });
}

describe('runMigration (dry run)', () => {
  it('streams 10,000 entries into a file that parses and matches the source', async () => {
    await writeBannedPlayers(dir, tenThousandEntries());
    await writeBannedIps(dir, ['1.2.3.4', '5.6.7.8', '9.9.9.9'], NOW - DAY);
    const outFile = join(dir, 'out', '..', 'migration.json');
    const events: MigrationProgressEvent[] = [];
    const summary = await runMigration({
      from: 'vanilla',
      dir,
      outFile,
      dryRun: true,
      clock: fixedClock(NOW),
      onProgress: (event) => events.push(event),
    });

    expect(summary).toMatchObject({ players: 9_900, punishments: 9_900, entriesRead: 10_003, dryRun: true });
    expect(summary.skipped).toEqual([
      {
        reason: 'unreadable "created" date',
        count: 100,
        examples: [
          'banned-players.json entry #100',
          'banned-players.json entry #200',
          'banned-players.json entry #300',
        ],
      },
      {
        reason: 'IP ban (banned-ips.json): no player to attach it to',
        count: 3,
        examples: ['banned-ips.json entry #1', 'banned-ips.json entry #2', 'banned-ips.json entry #3'],
      },
    ]);
    expect(summary.serviceAnswer).toBeUndefined();

    const file = JSON.parse(readFileSync(outFile, 'utf8')) as {
      players: { minecraftUuid: string; punishments: { active: boolean; duration: number }[] }[];
    };
    expect(file.players).toHaveLength(9_900);
    expect(summary.fileSize).toBe(readFileSync(outFile).length);
    expect(file.players[0]).toMatchObject({
      minecraftUuid: uuidOf(0),
      punishments: [{ active: true, duration: -1, typeOrdinal: 2 }],
    });
    expect(file.players[9]).toMatchObject({
      minecraftUuid: uuidOf(9),
      punishments: [{ active: false, duration: DAY }],
    });
    expect(file.players.filter((player) => !player.punishments[0]!.active)).toHaveLength(900);
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).toEqual([]);

    const building = events.filter((event) => event.phase === 'building_json');
    expect(building[0]).toEqual({ phase: 'building_json', processed: 0, total: 10_003 });
    expect(building.at(-1)).toEqual({ phase: 'building_json', processed: 10_003, total: 10_003 });
    expect(events.at(-1)?.phase).toBe('completed');
  });

  it('leaves nothing behind when the source fails half-way', async () => {
    const outFile = join(dir, 'migration.json');
    const failing: MigrationSource = {
      total: 3,
      async *items() {
        yield { kind: 'player', player: { minecraftUuid: uuidOf(1), usernames: [], punishments: [] } };
        throw new MigrationError('source', 'banned-players.json is not valid JSON: entry #2: boom');
      },
    };
    const noop = () => {};
    await expect(
      buildMigrationFile(failing, outFile, { onLocalProgress: noop, onServiceProgress: noop }),
    ).rejects.toThrow('entry #2');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reports failed with the explanation when the source is malformed', async () => {
    await writeBannedPlayers(dir, '{"not": "a list"}');
    const events: MigrationProgressEvent[] = [];
    const error = await runMigration({
      from: 'vanilla',
      dir,
      outFile: join(dir, 'm.json'),
      dryRun: true,
      onProgress: (e) => events.push(e),
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'source', code: 'BAILIFF_MIGRATION_SOURCE' });
    expect(events).toEqual([
      { phase: 'failed', message: 'banned-players.json must hold a JSON array of bans, received an object' },
    ]);
    expect(existsSync(join(dir, 'm.json'))).toBe(false);
  });
});

describe('runMigration (upload, progress through the outbox)', () => {
  async function migrateWith(uploadSteps: Parameters<typeof fakeMigrationClient>[0]) {
    await writeBannedPlayers(dir, tenThousandEntries());
    const fake = fakeMigrationClient(uploadSteps);
    const db = openDb(':memory:');
    const outbox = createOutbox({ db, client: fake.client });
    outbox.start();
    try {
      const result = await runMigration({
        from: 'vanilla',
        dir,
        outFile: join(dir, 'migration.json'),
        client: fake.client,
        outbox,
        clock: fixedClock(NOW),
        timers: recordingTimers({ neverFireAtOrAbove: DRAIN_TIMEOUT_MS }),
        random: () => 0,
        ids: () => 'run-1',
        drainTimeoutMs: DRAIN_TIMEOUT_MS,
      }).catch((error: unknown) => error);
      return { result, fake, stats: outbox.stats() };
    } finally {
      await outbox.stop();
      db.close();
    }
  }

  it('sends building_json with counts, then uploading_json, then completed, in order, before returning', async () => {
    const { result, fake, stats } = await migrateWith([
      new ApiError({ kind: 'http', status: 502, endpoint: 'uploadMigration', message: 'bad gateway' }),
      { success: true, message: 'queued', fileSize: 1 },
    ]);
    expect(result).toMatchObject({ players: 9_900, serviceAnswer: { message: 'queued' } });
    expect(fake.uploads).toHaveLength(2);
    const statuses = fake.progress.map((body) => body.status);
    const firstUpload = statuses.indexOf('uploading_json');
    expect(statuses.slice(0, firstUpload).every((status) => status === 'building_json')).toBe(true);
    expect(statuses.slice(firstUpload)).toEqual(['uploading_json', 'completed']);
    const counts = fake.progress.filter((body) => body.status === 'building_json').map((body) => body.processed);
    expect(counts).toEqual([...counts].sort((a, b) => a! - b!));
    expect(counts.at(0)).toBe(0);
    expect(counts.at(-1)).toBe(10_000);
    expect(fake.progress.at(-1)).toMatchObject({ status: 'completed', processed: 10_000, total: 10_000 });
    expect(stats).toMatchObject({ pending: 0, inFlight: 0, dead: 0 });
  });

  it('ends with failed and the explanation when the service refuses the file', async () => {
    const tooLarge = new ApiError({ kind: 'http', status: 413, endpoint: 'uploadMigration', message: 'too large' });
    const { result, fake } = await migrateWith([tooLarge]);
    expect(result).toBeInstanceOf(MigrationError);
    expect((result as MigrationError).message).toMatch(
      /larger than the service accepts \(413\): split it or raise the service's --max-upload-mb\.$/,
    );
    expect(fake.progress.at(-1)).toEqual({ status: 'failed', message: (result as MigrationError).message });
    expect(fake.progress.map((body) => body.status).slice(-2)).toEqual(['uploading_json', 'failed']);
  });

  it('removes its own temporary file once uploaded, and keeps a file written where it was told', async () => {
    await writeBannedPlayers(dir, [vanillaEntry(1, NOW - DAY)]);
    const fake = fakeMigrationClient([{ success: true, message: 'queued', fileSize: 1 }]);
    const sizes: number[] = [];
    const client = new Proxy(fake.client, {
      get(target, name: string) {
        if (name !== 'uploadMigration') return Reflect.get(target, name);
        return async (payload: { filePath: string }) => {
          sizes.push(readFileSync(payload.filePath).length); // the file is there while it is uploaded
          return target.uploadMigration(payload);
        };
      },
    });
    const base = { from: 'vanilla' as const, dir, client, clock: fixedClock(NOW), random: () => 0 };

    const temporary = await runMigration({ ...base, ids: () => 'temp-run' });
    expect(temporary.filePath.startsWith(tmpdir())).toBe(true);
    expect(temporary.fileRemoved).toBe(true);
    expect(existsSync(temporary.filePath)).toBe(false);

    const kept = await runMigration({ ...base, outFile: join(dir, 'kept.json'), ids: () => 'kept-run' });
    expect(kept.fileRemoved).toBeUndefined();
    expect(readFileSync(join(dir, 'kept.json')).length).toBe(kept.fileSize);
    expect(sizes).toEqual([temporary.fileSize, kept.fileSize]);
  });
});

describe('runMigration: exported players for the cache', () => {
  it('hands each written player to onPlayerExported (active ones become punishments under the same ids), never in a dry run', async () => {
    await writeBannedPlayers(dir, [
      vanillaEntry(1, NOW - DAY),
      vanillaEntry(2, NOW - 3 * DAY, { expires: vanillaDate(NOW - 2 * DAY) }),
    ]);
    const exported: string[] = [];
    const fake = fakeMigrationClient([{ success: true, message: 'queued', fileSize: 1 }]);
    const outFile = join(dir, 'upload.json');
    await runMigration({
      from: 'vanilla',
      dir,
      outFile,
      client: fake.client,
      clock: fixedClock(NOW),
      onPlayerExported: (player) => {
        exported.push(...activePunishmentsOf(player).map((punishment) => `${punishment.id}:${punishment.targetUuid}`));
      },
    });
    const file = JSON.parse(readFileSync(outFile, 'utf8')) as {
      players: { minecraftUuid: string; punishments: { id: string; active: boolean }[] }[];
    };
    const active = file.players.flatMap((player) =>
      player.punishments.filter((item) => item.active).map((item) => `${item.id}:${player.minecraftUuid}`),
    );
    expect(active).toEqual([`${file.players[0]!.punishments[0]!.id}:${uuidOf(1)}`]);
    expect(exported).toEqual(active);

    const dryRun: string[] = [];
    await runMigration({
      from: 'vanilla',
      dir,
      outFile: join(dir, 'dry.json'),
      dryRun: true,
      clock: fixedClock(NOW),
      onPlayerExported: (player) => dryRun.push(player.minecraftUuid),
    });
    expect(dryRun).toEqual([]);
  });
});
