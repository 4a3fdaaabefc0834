import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MigrationError } from '../../src/migration/errors.js';
import { VANILLA_SKIP } from '../../src/migration/mapping/vanilla-entry.js';
import { countTopLevelEntries } from '../../src/migration/sources/count-entries.js';
import { ESSENTIALS_FILE_SKIP } from '../../src/migration/sources/essentials.js';
import { openSource } from '../../src/migration/sources/index.js';
import { IP_BAN_SKIP_REASON } from '../../src/migration/sources/vanilla.js';
import type { MigrationSource, SourceItem } from '../../src/migration/types.js';
import {
  makeTempDir,
  uuidOf,
  vanillaEntry,
  writeBannedIps,
  writeBannedPlayers,
  writeEssentialsUser,
} from './helpers/fixtures.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const CREATED = NOW - 3_600_000;
const now = () => NOW;

async function readAll(source: MigrationSource): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of source.items()) items.push(item);
  return items;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

describe('countTopLevelEntries', () => {
  it.each([
    ['[]', 0],
    ['  \n', 0],
    ['[{"a":"x,y]"},{"b":[1,2,{"c":","}]},"s\\"t,"]', 3],
    ['[1]', 1],
  ])('counts %s as %i', async (text, entries) => {
    const path = join(dir, 'f.json');
    await writeFile(path, text);
    expect((await countTopLevelEntries(path)).entries).toBe(entries);
  });

  it('reports an object at the top level', async () => {
    const path = join(dir, 'f.json');
    await writeFile(path, '{"players": []}');
    expect(await countTopLevelEntries(path)).toEqual({ topLevel: 'object', entries: 0 });
  });
});

describe('vanilla source', () => {
  it('yields one player per entry, then each IP ban as skipped', async () => {
    await writeBannedPlayers(dir, [vanillaEntry(1, CREATED), vanillaEntry(2, CREATED, { flavour: 'unknown field' })]);
    await writeBannedIps(dir, ['10.0.0.1', '10.0.0.2'], CREATED);
    const source = await openSource({ from: 'vanilla', dir }, now);
    expect(source.total).toBe(4);
    const items = await readAll(source);
    expect(items.map((item) => item.kind)).toEqual(['player', 'player', 'skipped', 'skipped']);
    expect(items[1]).toMatchObject({ player: { minecraftUuid: uuidOf(2) } });
    expect(items[3]).toEqual({ kind: 'skipped', reason: IP_BAN_SKIP_REASON, where: 'banned-ips.json entry #2' });
  });

  it('reads an empty list and a blank file as no entries', async () => {
    await writeBannedPlayers(dir, []);
    expect(await readAll(await openSource({ from: 'vanilla', dir }, now))).toEqual([]);
    await writeBannedPlayers(dir, '');
    expect(await readAll(await openSource({ from: 'vanilla', dir }, now))).toEqual([]);
  });

  it('skips a bad entry with its position and keeps going', async () => {
    await writeBannedPlayers(dir, [
      vanillaEntry(1, CREATED),
      vanillaEntry(2, CREATED, { uuid: 12 }),
      vanillaEntry(3, CREATED),
    ]);
    const items = await readAll(await openSource({ from: 'vanilla', dir }, now));
    expect(items[1]).toEqual({ kind: 'skipped', reason: VANILLA_SKIP.badUuid, where: 'banned-players.json entry #2' });
    expect(items[2]?.kind).toBe('player');
  });

  it.each([
    ['a broken entry', (good: string) => `[${good}, {"uuid": "x", "name": }, ${good}]`, /: entry #2: .*JSON/],
    ['a stray comma', (good: string) => `[${good},,${good}]`, /: entry #2 is empty/],
    ['a file cut short', (good: string) => `[${good}, {"uuid": "x`, /: the file ends inside entry #2/],
    ['text that is not JSON', () => 'banned: everyone', /must hold a JSON array of bans, received something else/],
  ])('fails on malformed JSON (%s) naming the file and the entry', async (_label, content, expected) => {
    await writeBannedPlayers(dir, content(JSON.stringify(vanillaEntry(1, CREATED))));
    const error = await openSource({ from: 'vanilla', dir }, now)
      .then(readAll)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toMatch(/^banned-players\.json /);
    expect((error as MigrationError).message).toMatch(expected);
  });

  it('fails on the wrong shape and on a missing file with a message naming them', async () => {
    await writeBannedPlayers(dir, { players: [] });
    await expect(openSource({ from: 'vanilla', dir }, now)).rejects.toThrow(
      'banned-players.json must hold a JSON array of bans, received an object',
    );
    await expect(openSource({ from: 'vanilla', dir: join(dir, 'nowhere') }, now)).rejects.toThrow(
      /banned-players\.json not found in/,
    );
  });
});

describe('essentials source', () => {
  const SAVED = NOW - 7_200_000;

  it('reads userdata files one by one: ban, mute, neither, bad YAML, bad file name', async () => {
    await writeEssentialsUser(
      dir,
      `${uuidOf(1)}.yml`,
      'last-account-name: Banned\nban:\n  reason: grief\n  timeout: 0\n',
      SAVED,
    );
    await writeEssentialsUser(
      dir,
      `${uuidOf(2)}.yml`,
      `last-account-name: Muted\nmute: true\nmuteReason: spam\ntimestamps:\n  mute: ${NOW + 60_000}\n`,
      SAVED,
    );
    await writeEssentialsUser(dir, `${uuidOf(3)}.yml`, 'last-account-name: Clean\nmoney: "12"\n', SAVED);
    await writeEssentialsUser(dir, `${uuidOf(4)}.yml`, 'ban: [unclosed\n  reason: x', SAVED);
    await writeEssentialsUser(dir, 'not-a-uuid.yml', 'mute: true\n', SAVED);
    await writeFile(join(dir, 'plugins', 'Essentials', 'userdata', 'notes.txt'), 'ignored');

    for (const folder of [join(dir, 'plugins', 'Essentials'), join(dir, 'plugins', 'Essentials', 'userdata')]) {
      const source = await openSource({ from: 'essentials', dir: folder }, now);
      expect(source.total).toBe(5);
      const items = await readAll(source);
      expect(items.map((item) => item.kind)).toEqual(['player', 'player', 'empty', 'skipped', 'skipped']);
      expect(items[0]).toMatchObject({ player: { punishments: [{ typeOrdinal: 2, reason: 'grief', duration: -1 }] } });
      expect(items[1]).toMatchObject({
        player: { punishments: [{ typeOrdinal: 1, reason: 'spam', duration: NOW + 60_000 - SAVED }] },
      });
      expect(items[3]).toMatchObject({
        reason: ESSENTIALS_FILE_SKIP.badYaml,
        where: expect.stringContaining(`userdata/${uuidOf(4)}.yml:`),
      });
      expect(items[4]).toMatchObject({ reason: ESSENTIALS_FILE_SKIP.badFileName, where: 'userdata/not-a-uuid.yml' });
    }
  });

  it('fails when the folder does not exist', async () => {
    await expect(openSource({ from: 'essentials', dir: join(dir, 'missing') }, now)).rejects.toThrow(
      /Essentials userdata folder not found/,
    );
  });
});
