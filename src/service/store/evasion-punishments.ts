import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import { ipBanKeysHolding } from './ip-ban-keys.js';
import type { EvasionPunishmentStorePort, IpRange } from './ports/evasion.js';
import type { RenderableRow } from './punishment-rows.js';
import { RENDERED_COLUMNS } from './punishments.js';

type LinkedBans = { networkId: number; parentId: string };

// The conditions of the partial indexes (`IS NOT NULL`) are spelt out, so a planner sees a parameter's row may use them.
/** The statements of {@link EvasionPunishmentStore}; the query-plan tests check each one's plan. */
export const EVASION_STATEMENTS = {
  // One index probe per prefix length the address can be held by (see ip-ban-keys.ts). SQLite is told the index:
  // a planner without statistics would rather walk the network's active punishments by status.
  activeIpBansHolding: prepare<{ networkId: number; keys: string[] }, RenderableRow>(
    'evasion.activeIpBansHolding',
    ({ db, choices }, p) =>
      db
        .selectFrom(choices.throughIndex('service_punishments', 'service_punishments_ip_ban'))
        .select(RENDERED_COLUMNS)
        .where('network_id', '=', p.networkId)
        .where(choices.inList(raw.ref('ip_ban_key'), p.keys))
        .where('ip_ban_key', 'is not', null)
        .where('status', '=', raw.lit('active'))
        .orderBy('created_at', 'desc'),
  ),
  activeLinkedBans: prepare<LinkedBans, { id: string }>('evasion.activeLinkedBans', ({ db, choices }, p) => {
    const linkedBanId = choices.jsonText('data', 'linkedBanId');
    return db
      .selectFrom('service_punishments')
      .select('id')
      .where('network_id', '=', p.networkId)
      .where(linkedBanId, '=', p.parentId)
      .where(linkedBanId, 'is not', null)
      .where('status', '=', raw.lit('active'));
  }),
  linkedBanOfTarget: prepare<LinkedBans & { uuid: string }, { id: string }>(
    'evasion.linkedBanOfTarget',
    ({ db, choices }, p) => {
      const linkedBanId = choices.jsonText('data', 'linkedBanId');
      return db
        .selectFrom('service_punishments')
        .select('id')
        .where('network_id', '=', p.networkId)
        .where(linkedBanId, '=', p.parentId)
        .where(linkedBanId, 'is not', null)
        .where('target_uuid', '=', p.uuid)
        .limit(raw.lit(1));
    },
  ),
};

const q = EVASION_STATEMENTS;

/**
 * Punishments found by what their `data` says about ban evasion: IP bans (`data.ipAddress`, read
 * through their prefix key) and Linked Bans (`data.linkedBanId`, the alt-blocking ban they were
 * issued for, read through a partial expression index), so punishments without such data cost nothing.
 */
export class EvasionPunishmentStore implements EvasionPunishmentStorePort {
  constructor(private readonly sql: SqlContext) {}

  activeIpBansHolding(networkId: number, address: IpRange): Promise<RenderableRow[]> {
    return q.activeIpBansHolding.all(this.sql, { networkId, keys: ipBanKeysHolding(address) });
  }

  async activeLinkedBans(networkId: number, parentId: string): Promise<string[]> {
    return (await q.activeLinkedBans.all(this.sql, { networkId, parentId })).map((row) => row.id);
  }

  async hasLinkedBan(networkId: number, parentId: string, targetUuid: string): Promise<boolean> {
    const values = { networkId, parentId, uuid: targetUuid.toLowerCase() };
    return (await q.linkedBanOfTarget.first(this.sql, values)) !== undefined;
  }
}
