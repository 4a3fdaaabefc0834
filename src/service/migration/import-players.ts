import type { ServiceContext } from '../context.js';
import { currentName, migrationPlayer } from './migration-record.js';

export interface ImportTally {
  players: number;
  punishments: number;
  duplicates: number;
  invalid: number;
}

export const emptyTally = (): ImportTally => ({ players: 0, punishments: 0, duplicates: 0, invalid: 0 });

/**
 * Imports one batch of raw player records in a single transaction. Punishments already known
 * by id are left as they are; invalid records are counted and skipped.
 */
export async function importPlayerBatch(
  context: ServiceContext,
  networkId: number,
  batch: unknown[],
  tally: ImportTally,
): Promise<void> {
  // Counted on a copy, so a batch rolled back leaves the tally as it was.
  const counted = { ...tally };
  await context.storage.transaction(async (stores) => {
    for (const raw of batch) {
      const parsed = migrationPlayer.safeParse(raw);
      if (!parsed.success) {
        counted.invalid += 1;
        continue;
      }
      const player = parsed.data;
      const name = currentName(player);
      await stores.players.save(networkId, player.minecraftUuid, name);
      counted.players += 1;
      for (const punishment of player.punishments) {
        const inserted = await stores.punishments.insert({
          networkId,
          id: punishment.id,
          targetUuid: player.minecraftUuid,
          targetName: name,
          issuerName: punishment.issuerName ?? 'Migration',
          typeOrdinal: punishment.typeOrdinal,
          reason: punishment.reason ?? '',
          duration: punishment.duration,
          status: punishment.active ? 'active' : 'expired',
          createdAt: punishment.issued,
          // Imported punishments were already enforced by the old system.
          startedAt: punishment.issued,
        });
        if (inserted) counted.punishments += 1;
        else counted.duplicates += 1;
      }
    }
  });
  Object.assign(tally, counted);
}
