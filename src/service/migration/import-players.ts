import { ADDRESS_ONLY_TARGET, ADDRESS_ONLY_TARGET_NAME } from '../../contract/evasion-data.js';
import type { ServiceStores } from '../context.js';
import type { ImportTally } from '../store/migration-rows.js';
import { currentName, type MigrationPlayer, migrationPlayer } from './migration-record.js';

type ImportedPunishment = MigrationPlayer['punishments'][number];

/** A pardon wins over a warning, a warning over `active`. */
function statusOf(punishment: ImportedPunishment): string {
  if (punishment.pardon) return 'pardoned';
  if (punishment.status === 'warning') return 'warning';
  return punishment.active ? 'active' : 'expired';
}

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
    const addressOnly = player.minecraftUuid === ADDRESS_ONLY_TARGET;
    const name = addressOnly ? ADDRESS_ONLY_TARGET_NAME : currentName(player);
    if (!addressOnly) await stores.players.save(networkId, player.minecraftUuid, name);
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
        status: statusOf(punishment),
        ...(punishment.data ? { data: punishment.data } : {}),
        createdAt: punishment.issued,
        // Imported punishments were already enforced by the old system.
        startedAt: punishment.issued,
      });
      if (inserted && punishment.pardon) {
        await stores.pardons.record({
          networkId,
          punishmentId: punishment.id,
          issuerName: punishment.pardon.issuerName,
          reason: punishment.pardon.reason,
          serverId: null,
          pardonedAt: punishment.pardon.date,
        });
      }
      if (inserted) counted.punishments += 1;
      else counted.duplicates += 1;
    }
  }
  return counted;
}
