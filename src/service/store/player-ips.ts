import { prepare, type SqlContext } from '../db/prepared.js';
import type { AccountOnIp, PlayerIp, PlayerIpStorePort } from './ports/player-ips.js';

type Player = { networkId: number; uuid: string };

/** The statements of {@link PlayerIpStore}; the query-plan tests check each one's plan. */
export const PLAYER_IP_STATEMENTS = {
  record: prepare<Player & { ip: string; at: number }, never>('playerIps.record', ({ db, choices }, p) =>
    db
      .insertInto('service_player_ips')
      .values({ network_id: p.networkId, ip: p.ip, uuid: p.uuid, first_seen_at: p.at, last_seen_at: p.at })
      .onConflict((conflict) =>
        conflict.columns(['network_id', 'ip', 'uuid']).doUpdateSet((update) => ({
          last_seen_at: choices.greater(
            update.ref('service_player_ips.last_seen_at'),
            update.ref('excluded.last_seen_at'),
          ),
        })),
      ),
  ),
  addressesOf: prepare<Player & { sinceMs: number }, PlayerIp>('playerIps.addressesOf', ({ db }, p) =>
    db
      .selectFrom('service_player_ips')
      .select(['ip', 'first_seen_at as firstSeenAt', 'last_seen_at as lastSeenAt'])
      .where('network_id', '=', p.networkId)
      .where('uuid', '=', p.uuid)
      .where('last_seen_at', '>=', p.sinceMs)
      .orderBy('last_seen_at', 'desc'),
  ),
  accountsOn: prepare<{ networkId: number; ip: string; sinceMs: number; limit: number }, AccountOnIp>(
    'playerIps.accountsOn',
    ({ db }, p) =>
      db
        .selectFrom('service_player_ips')
        .select(['uuid', 'last_seen_at as lastSeenAt'])
        .where('network_id', '=', p.networkId)
        .where('ip', '=', p.ip)
        .where('last_seen_at', '>=', p.sinceMs)
        .limit(p.limit),
  ),
};

const q = PLAYER_IP_STATEMENTS;

/** Which addresses each player logged in from, and when (the login check records them). */
export class PlayerIpStore implements PlayerIpStorePort {
  constructor(private readonly sql: SqlContext) {}

  async record(networkId: number, uuid: string, ip: string, at: number): Promise<void> {
    await q.record.run(this.sql, { networkId, uuid: uuid.toLowerCase(), ip, at });
  }

  addressesOf(networkId: number, uuid: string, sinceMs: number): Promise<PlayerIp[]> {
    return q.addressesOf.all(this.sql, { networkId, uuid: uuid.toLowerCase(), sinceMs });
  }

  accountsOn(networkId: number, ip: string, sinceMs: number, limit: number): Promise<AccountOnIp[]> {
    return q.accountsOn.all(this.sql, { networkId, ip, sinceMs, limit });
  }
}
