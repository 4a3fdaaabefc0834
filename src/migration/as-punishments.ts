import type { Punishment } from '../contract/schemas.js';
import type { MigrationPlayer } from './types.js';

/**
 * A migrated player's active punishments as the service lists them once imported: same ids,
 * created and started when issued (the old system already enforced them). A game server stores
 * these in its cache so it enforces them before the service has processed the upload.
 */
export function activePunishmentsOf(player: MigrationPlayer): Punishment[] {
  // The newest name, as the service's import names the player.
  const latest = [...player.usernames].sort((a, b) => Date.parse(a.date) - Date.parse(b.date)).at(-1);
  const name = latest?.username ?? player.minecraftUuid.slice(0, 8);
  return player.punishments
    .filter((punishment) => punishment.active)
    .map((punishment) => ({
      id: punishment.id,
      targetUuid: player.minecraftUuid.toLowerCase(),
      targetName: name,
      issuerName: punishment.issuerName,
      typeOrdinal: punishment.typeOrdinal,
      reason: punishment.reason,
      duration: punishment.duration,
      createdAt: punishment.issued,
      status: 'active',
      started: punishment.issued,
    }));
}
