import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSeed, SeedError, startService } from '../../src/service/index.js';
import { KEY_B, ManualClock, testSeed } from './helpers/fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'bailiff-seed-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dumpServiceTables(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'service_%' ORDER BY name",
      )
      .all();
    return Object.fromEntries(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM ${name} ORDER BY 1, 2`).all()]),
    );
  } finally {
    db.close();
  }
}

function writeSeed(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('seed', () => {
  it('loading the same seed file twice changes nothing', async () => {
    const seed = testSeed();
    seed.networks[0]!.tickets = [
      {
        id: 'seed-ticket',
        type: 'player',
        subject: 's',
        description: 'd',
        status: 'Open',
        priority: 'high',
        creatorUuid: seed.networks[0]!.players![0]!.uuid,
        creatorName: 'Notch',
        reportedPlayerUuid: null,
        reportedPlayerName: null,
        tags: [],
        replies: [{ id: 'r1', authorName: 'a', message: 'm', createdAt: '2026-01-01T00:00:00.000Z' }],
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ];
    seed.networks[0]!.punishments = [
      { targetUuid: seed.networks[0]!.players![1]!.uuid, typeOrdinal: 6, severity: 'lenient' },
    ];
    const seedPath = writeSeed('seed.json', seed);
    const dbPath = join(dir, 'service.db');
    const clock = new ManualClock();
    const first = await startService({ port: 0, dbPath, seed: seedPath, clock });
    await first.close();
    const afterFirst = dumpServiceTables(dbPath);
    clock.advance(3_600_000);
    const second = await startService({ port: 0, dbPath, seed: seedPath, clock });
    const recent = await fetch(`${second.url}/v1/minecraft/punishments/recent?hours=8760`, {
      headers: { 'x-api-key': KEY_B },
    });
    expect(((await recent.json()) as { punishments: { id: string }[] }).punishments.map((p) => p.id)).toEqual([
      'beta-ban',
    ]);
    await second.close();
    const afterSecond = dumpServiceTables(dbPath);
    expect(afterSecond).toEqual(afterFirst);
    expect(afterFirst.service_punishments).toHaveLength(2);
    expect(afterFirst.service_notifications).toHaveLength(2);
    expect(afterFirst.service_ticket_replies).toHaveLength(1);
    // Keys are only stored hashed.
    expect(JSON.stringify(afterFirst.service_servers)).not.toContain('network-a-survival-key');
  });

  it.each([
    ['missing.json', null, /missing\.json: cannot read seed file/],
    ['broken.json', '{"networks": [', /broken\.json: not valid JSON/],
    [
      'no-key.json',
      { networks: [{ name: 'n', servers: [{ name: 's' }] }] },
      /no-key\.json: networks\[0\]\.servers\[0\]\.apiKey: is required$/,
    ],
    [
      'bad-uuid.json',
      { networks: [{ name: 'n', servers: [], players: [{ uuid: 'x', name: 'p' }] }] },
      /networks\[0\]\.players\[0\]\.uuid: must be a UUID/,
    ],
    ['extra.json', { networks: [], colour: 'red' }, /extra\.json: colour: is not an accepted field$/],
    ['not-object.json', '[]', /not-object\.json: \(root\): must be an object$/],
  ])('rejects %s with a message naming the file and the JSON path', (name, content, expected) => {
    const path = content === null ? join(dir, name) : writeSeed(name, content);
    expect(() => loadSeed(path)).toThrow(SeedError);
    expect(() => loadSeed(path)).toThrow(expected);
  });

  it('rejects a key used twice and a punishment of an unknown player, without printing the key', () => {
    const twice = testSeed();
    twice.networks[1]!.servers[0]!.apiKey = twice.networks[0]!.servers[0]!.apiKey;
    const path = writeSeed('twice.json', twice);
    expect(() => loadSeed(path)).toThrow(
      /twice\.json: networks\[1\]\.servers\[0\]\.apiKey: same API key as networks\[0\]\.servers\[0\]\.apiKey/,
    );
    expect(() => loadSeed(path)).not.toThrow(/network-a-survival-key/);
    const orphan = testSeed();
    orphan.networks[1]!.players = [];
    expect(() => loadSeed(writeSeed('orphan.json', orphan))).toThrow(
      /networks\[1\]\.punishments\[0\]\.targetUuid: 61699b2e-d327-4a01-9f1e-0ea8c3f06bc6 is not in networks\[1\]\.players/,
    );
  });
});
