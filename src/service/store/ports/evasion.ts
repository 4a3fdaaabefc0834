import type { IpRange } from '../../../ip/ip-range.js';
import type { RenderableRow } from '../punishment-rows.js';

export type { IpRange } from '../../../ip/ip-range.js';
export { ipBanKeysHolding } from '../ip-ban-keys.js';

/**
 * Punishments found by what their `data` says about ban evasion: IP bans (`data.ipAddress`, read
 * through their prefix key `ip_ban_key`) and Linked Bans (`data.linkedBanId`).
 */
export interface EvasionPunishmentStorePort {
  /** The network's active IP bans whose address or range holds `address`, newest first. */
  activeIpBansHolding(networkId: number, address: IpRange): Promise<RenderableRow[]>;
  /** Ids of the active Linked Bans issued for `parentId`. */
  activeLinkedBans(networkId: number, parentId: string): Promise<string[]>;
  /** Whether `targetUuid` was ever given a Linked Ban for `parentId` (whatever its status now). */
  hasLinkedBan(networkId: number, parentId: string, targetUuid: string): Promise<boolean>;
}
