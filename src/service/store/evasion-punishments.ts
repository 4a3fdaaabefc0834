import type { Db } from '../../db/open-db.js';
import type { PunishmentRow } from './punishment-rows.js';

/**
 * Punishments found by what their `data` says about ban evasion: IP bans (`data.ipAddress`) and
 * Linked Bans (`data.linkedBanId`, the alt-blocking ban they were issued for). Both read through
 * partial expression indexes (schema version 4), so punishments without such data cost nothing.
 */
export class EvasionPunishmentStore {
  private readonly activeIpBansStatement;
  private readonly linkedOfParent;
  private readonly linkedOfParentAndTarget;

  constructor(db: Db) {
    this.activeIpBansStatement = db.prepare<[number], PunishmentRow>(
      `SELECT * FROM service_punishments
       WHERE network_id = ? AND json_extract(data, '$.ipAddress') IS NOT NULL AND status = 'active'
       ORDER BY created_at DESC`,
    );
    this.linkedOfParent = db.prepare<[number, string], { id: string }>(
      `SELECT id FROM service_punishments
       WHERE network_id = ? AND json_extract(data, '$.linkedBanId') = ? AND status = 'active'`,
    );
    this.linkedOfParentAndTarget = db.prepare<[number, string, string], { id: string }>(
      `SELECT id FROM service_punishments
       WHERE network_id = ? AND json_extract(data, '$.linkedBanId') = ? AND target_uuid = ? LIMIT 1`,
    );
  }

  /** Every active punishment of the network that carries `data.ipAddress`, newest first. */
  activeIpBans(networkId: number): PunishmentRow[] {
    return this.activeIpBansStatement.all(networkId);
  }

  /** Ids of the active Linked Bans issued for `parentId`. */
  activeLinkedBans(networkId: number, parentId: string): string[] {
    return this.linkedOfParent.all(networkId, parentId).map((row) => row.id);
  }

  /** Whether `targetUuid` was ever given a Linked Ban for `parentId` (whatever its status now). */
  hasLinkedBan(networkId: number, parentId: string, targetUuid: string): boolean {
    return this.linkedOfParentAndTarget.get(networkId, parentId, targetUuid.toLowerCase()) !== undefined;
  }
}
