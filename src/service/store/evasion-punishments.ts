import type { Db } from '../../db/open-db.js';
import type { IpRange } from '../../ip/ip-range.js';
import { ipBanKeysHolding } from './ip-ban-keys.js';
import type { PunishmentRow } from './punishment-rows.js';

/** The statements of {@link EvasionPunishmentStore}; test/service/query-plans.test.ts checks each one's plan. */
export const EVASION_SQL = {
  // One index probe per prefix length the address can be held by (see ip-ban-keys.ts). Named, as
  // a planner without statistics would rather walk the network's active punishments by status.
  activeIpBansHolding: `SELECT * FROM service_punishments INDEXED BY service_punishments_ip_ban
    WHERE network_id = ? AND ip_ban_key IN (SELECT value FROM json_each(?)) AND status = 'active'
    ORDER BY created_at DESC`,
  activeLinkedBans: `SELECT id FROM service_punishments
    WHERE network_id = ? AND json_extract(data, '$.linkedBanId') = ? AND status = 'active'`,
  linkedBanOfTarget: `SELECT id FROM service_punishments
    WHERE network_id = ? AND json_extract(data, '$.linkedBanId') = ? AND target_uuid = ? LIMIT 1`,
} as const;

/**
 * Punishments found by what their `data` says about ban evasion: IP bans (`data.ipAddress`, read
 * through their prefix key) and Linked Bans (`data.linkedBanId`, the alt-blocking ban they were
 * issued for, read through a partial expression index), so punishments without such data cost nothing.
 */
export class EvasionPunishmentStore {
  private readonly ipBansHolding;
  private readonly linkedOfParent;
  private readonly linkedOfParentAndTarget;

  constructor(db: Db) {
    this.ipBansHolding = db.prepare<[number, string], PunishmentRow>(EVASION_SQL.activeIpBansHolding);
    this.linkedOfParent = db.prepare<[number, string], { id: string }>(EVASION_SQL.activeLinkedBans);
    this.linkedOfParentAndTarget = db.prepare<[number, string, string], { id: string }>(EVASION_SQL.linkedBanOfTarget);
  }

  /** The network's active IP bans whose address or range holds `address`, newest first. */
  activeIpBansHolding(networkId: number, address: IpRange): PunishmentRow[] {
    return this.ipBansHolding.all(networkId, JSON.stringify(ipBanKeysHolding(address)));
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
