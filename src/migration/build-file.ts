import { KindTally } from './kind-tally.js';
import { SkipTally } from './skip-tally.js';
import type { MigrationPlayer, MigrationSource } from './types.js';
import { openMigrationFileWriter } from './writer.js';

export interface BuildProgress {
  processed: number;
  total: number;
}

export interface BuildOptions {
  /** Called every `localEveryEntries` entries and once at the end (bars, chat). */
  onLocalProgress: (progress: BuildProgress) => void;
  /** Called about every 1% (at least `localEveryEntries` apart) for the service. */
  onServiceProgress: (progress: BuildProgress) => void;
  /** @default 1000 */
  localEveryEntries?: number;
  /** Called with each player once written. */
  onPlayer?: (player: MigrationPlayer) => void;
}

export interface BuiltFile {
  players: number;
  punishments: number;
  entriesRead: number;
  skipped: SkipTally;
  /** Punishments by kind (see {@link KindTally}). */
  byKind: Record<string, number>;
  fileSize: number;
}

/**
 * Reads the source entry by entry and streams each player into the migration file. A player
 * whose uuid appeared before is written again as its own object rather than merged: merging
 * would mean remembering every uuid (unbounded), and the file format lets the service merge
 * players by uuid on import.
 */
export async function buildMigrationFile(
  source: MigrationSource,
  outFile: string,
  options: BuildOptions,
): Promise<BuiltFile> {
  const localEvery = options.localEveryEntries ?? 1000;
  const serviceEvery = Math.max(localEvery, Math.ceil(source.total / 100));
  const writer = await openMigrationFileWriter(outFile);
  const skipped = new SkipTally();
  const kinds = new KindTally();
  let processed = 0;
  let players = 0;
  let punishments = 0;
  try {
    for await (const item of source.items()) {
      processed++;
      if (item.kind === 'player') {
        await writer.writePlayer(item.player);
        options.onPlayer?.(item.player);
        players++;
        punishments += item.player.punishments.length;
        for (const punishment of item.player.punishments) kinds.add(punishment);
      } else if (item.kind === 'skipped') {
        skipped.add(item.reason, item.where);
      }
      // The count is a scan done before parsing; never report more processed than total.
      const total = Math.max(source.total, processed);
      if (processed % localEvery === 0) options.onLocalProgress({ processed, total });
      if (processed % serviceEvery === 0) options.onServiceProgress({ processed, total });
    }
    const fileSize = await writer.commit();
    return { players, punishments, entriesRead: processed, skipped, byKind: kinds.result(), fileSize };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
