import type { ServiceStores } from '../context.js';
import type { ImportTally } from '../store/migration-rows.js';
import { currentName, migrationPlayer } from './migration-record.js';

export { emptyTally, type ImportTally } from '../store/migration-rows.js';

/**
 * Imports one batch of raw player records with the stores of the caller's transaction and returns
 * the tally with the batch counted (the one given is left as it was, so a batch rolled back counts
 * nothing). Punishments already known by id are left as they are; invalid records are counted and
 * skipped.
 */
export async function importPlayerBatch(
  stores: ServiceStores,
  networkId: number,
  batch: unknown[],
  tally: ImportTally,
): Promise<ImportTally> {
  const counted = { ...tally };
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
  return counted;
}
