import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline } from 'node:stream';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { errorMessage, MigrationError } from '../errors.js';
import { normalizeUuid } from '../mapping/uuid.js';
import type { MigrationPlayer, MigrationSource, SourceItem } from '../types.js';

export const EXPORTED_SKIP = {
  notAPlayer: 'not a player object with a minecraftUuid and a punishments list',
} as const;

/** The elements of the file's `players` array, one at a time. */
async function* players(filePath: string): AsyncGenerator<{ index: number; value: unknown }> {
  const elements = streamArray.asStream();
  pipeline(createReadStream(filePath), pick.withParserAsStream({ filter: 'players' }), elements, () => {});
  let last = -1;
  try {
    for await (const element of elements as AsyncIterable<{ key: number; value: unknown }>) {
      last = element.key;
      yield { index: element.key, value: element.value };
    }
  } catch (error) {
    throw new MigrationError(
      'source',
      `${basename(filePath)} is not a valid migration file after player #${last + 1}: ${errorMessage(error)}`,
      { cause: error },
    );
  } finally {
    elements.destroy();
  }
}

function toItem(value: unknown, where: string): SourceItem {
  if (typeof value !== 'object' || value === null) return { kind: 'skipped', reason: EXPORTED_SKIP.notAPlayer, where };
  const player = value as Partial<MigrationPlayer>;
  if (!normalizeUuid(player.minecraftUuid) || !Array.isArray(player.punishments)) {
    return { kind: 'skipped', reason: EXPORTED_SKIP.notAPlayer, where };
  }
  // The service checks each punishment as it imports; a bad one is counted there as invalid.
  return { kind: 'player', player: value as MigrationPlayer };
}

/**
 * A migration file (`{"players": [...]}`), such as `bailiff migrate --to json` writes: read back
 * player by player and uploaded as it is.
 */
export async function openExportedFileSource(filePath: string): Promise<MigrationSource> {
  try {
    if (!(await stat(filePath)).isFile()) throw new Error('not a file');
  } catch {
    throw new MigrationError(
      'source',
      `${filePath} not found (expected a migration file from bailiff migrate --to json)`,
    );
  }
  let total = 0;
  for await (const _ of players(filePath)) total += 1;
  return {
    total,
    async *items() {
      for await (const { index, value } of players(filePath)) {
        yield toItem(value, `${basename(filePath)} player #${index + 1}`);
      }
    },
  };
}
