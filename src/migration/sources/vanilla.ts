import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MigrationError } from '../errors.js';
import { mapVanillaEntry } from '../mapping/vanilla-entry.js';
import type { MigrationSource, SourceItem } from '../types.js';
import { countTopLevelEntries, type EntryCount } from './count-entries.js';
import { readJsonArray } from './json-array.js';

export const BANNED_PLAYERS_FILE = 'banned-players.json';
export const BANNED_IPS_FILE = 'banned-ips.json';
export const IP_BAN_SKIP_REASON = 'IP ban (banned-ips.json): no player to attach it to';

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function countArray(filePath: string, fileName: string): Promise<number> {
  const count: EntryCount = await countTopLevelEntries(filePath);
  if (count.topLevel === 'array' || count.topLevel === 'empty') return count.entries;
  const received = count.topLevel === 'object' ? 'an object' : 'something else';
  throw new MigrationError('source', `${fileName} must hold a JSON array of bans, received ${received}`);
}

/**
 * A vanilla server folder: `banned-players.json` (one Manual Ban per entry) and, when present,
 * `banned-ips.json`, whose entries are counted and reported as skipped. Both are streamed.
 */
export async function openVanillaSource(dir: string, nowMs: () => number): Promise<MigrationSource> {
  const playersPath = join(dir, BANNED_PLAYERS_FILE);
  const ipsPath = join(dir, BANNED_IPS_FILE);
  if (!(await isFile(playersPath))) {
    throw new MigrationError('source', `${BANNED_PLAYERS_FILE} not found in ${dir} (expected the server folder)`);
  }
  const hasIpBans = await isFile(ipsPath);
  const playerEntries = await countArray(playersPath, BANNED_PLAYERS_FILE);
  const ipEntries = hasIpBans ? await countArray(ipsPath, BANNED_IPS_FILE) : 0;

  async function* items(): AsyncGenerator<SourceItem> {
    if (playerEntries > 0) {
      for await (const { index, value } of readJsonArray(playersPath)) {
        yield mapVanillaEntry(value, `${BANNED_PLAYERS_FILE} entry #${index + 1}`, nowMs());
      }
    }
    if (ipEntries > 0) {
      for await (const { index } of readJsonArray(ipsPath)) {
        yield { kind: 'skipped', reason: IP_BAN_SKIP_REASON, where: `${BANNED_IPS_FILE} entry #${index + 1}` };
      }
    }
  }
  return { total: playerEntries + ipEntries, items };
}
