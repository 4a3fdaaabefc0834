import type { ExportedPunishmentRow } from '../../service/store/ports/punishment-export.js';
import type { MigrationPlayer, MigrationPunishment } from '../types.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** Who pardoned a punishment whose pardon was not recorded (a status set through the admin API). */
export const UNRECORDED_PARDON = { issuerName: 'Unknown', reason: 'Pardoned before the export; not recorded' } as const;

/**
 * A stored punishment as one player of the migration file, so that importing the file gives the
 * same punishment back: its id, type, reason, issuer, dates, length, data, warning status and pardon.
 */
export function exportedPlayer(row: ExportedPunishmentRow): MigrationPlayer {
  const punishment: MigrationPunishment = {
    id: row.id,
    typeOrdinal: row.typeOrdinal,
    reason: row.reason,
    issued: iso(row.createdAt),
    issuerName: row.issuerName,
    duration: row.duration,
    active: row.status === 'active',
  };
  if (row.status === 'warning') punishment.status = 'warning';
  if (row.data !== null) punishment.data = JSON.parse(row.data) as Record<string, unknown>;
  if (row.status === 'pardoned') {
    punishment.pardon =
      row.pardonIssuerName !== null
        ? {
            issuerName: row.pardonIssuerName,
            reason: row.pardonReason ?? '',
            date: iso(row.pardonedAt ?? row.updatedAt),
          }
        : { ...UNRECORDED_PARDON, date: iso(row.updatedAt) };
  }
  return {
    minecraftUuid: row.targetUuid,
    usernames: [{ username: row.targetName, date: iso(row.createdAt) }],
    punishments: [punishment],
  };
}
