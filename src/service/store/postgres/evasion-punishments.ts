import type { IpRange } from '../../../ip/ip-range.js';
import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { ipBanKeysHolding } from '../ip-ban-keys.js';
import type { PunishmentRow } from '../punishment-rows.js';
import { PUNISHMENT_COLUMNS } from './punishment-columns.js';

// The exact expression of the service_punishments_linked_ban index, so the planner can use it.
const LINKED_BAN_ID = `((data::jsonb) ->> 'linkedBanId')`;

/** The statements of {@link PgEvasionPunishmentStore}. */
export const PG_EVASION_SQL = pgStatements('evasion', {
  // One index probe per prefix length the address can be held by (see ip-ban-keys.ts).
  activeIpBansHolding: `SELECT ${PUNISHMENT_COLUMNS} FROM service_punishments
    WHERE network_id = $1 AND ip_ban_key = ANY($2::text[]) AND ip_ban_key IS NOT NULL AND status = 'active'
    ORDER BY created_at DESC`,
  activeLinkedBans: `SELECT id FROM service_punishments
    WHERE network_id = $1 AND ${LINKED_BAN_ID} = $2 AND ${LINKED_BAN_ID} IS NOT NULL AND status = 'active'`,
  linkedBanOfTarget: `SELECT id FROM service_punishments
    WHERE network_id = $1 AND ${LINKED_BAN_ID} = $2 AND ${LINKED_BAN_ID} IS NOT NULL AND target_uuid = $3 LIMIT 1`,
});

/** Punishments found by what their `data` says about ban evasion (IP bans, Linked Bans), on PostgreSQL. */
export class PgEvasionPunishmentStore {
  constructor(private readonly db: PgDb) {}

  /** The network's active IP bans whose address or range holds `address`, newest first. */
  activeIpBansHolding(networkId: number, address: IpRange): Promise<PunishmentRow[]> {
    return this.db.rows(PG_EVASION_SQL.activeIpBansHolding, [networkId, ipBanKeysHolding(address)]);
  }

  /** Ids of the active Linked Bans issued for `parentId`. */
  async activeLinkedBans(networkId: number, parentId: string): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(PG_EVASION_SQL.activeLinkedBans, [networkId, parentId]);
    return rows.map((row) => row.id);
  }

  /** Whether `targetUuid` was ever given a Linked Ban for `parentId` (whatever its status now). */
  async hasLinkedBan(networkId: number, parentId: string, targetUuid: string): Promise<boolean> {
    const values = [networkId, parentId, targetUuid.toLowerCase()];
    return (await this.db.row(PG_EVASION_SQL.linkedBanOfTarget, values)) !== undefined;
  }
}
