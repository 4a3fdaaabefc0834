import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { AccountOnIp, PlayerIp } from '../player-ips.js';

/** The statements of {@link PgPlayerIpStore}. */
export const PG_PLAYER_IP_SQL = pgStatements('playerIps', {
  record: `INSERT INTO service_player_ips AS i (network_id, ip, uuid, first_seen_at, last_seen_at)
    VALUES ($1, $2, $3, $4, $4)
    ON CONFLICT (network_id, ip, uuid) DO UPDATE SET last_seen_at = greatest(i.last_seen_at, excluded.last_seen_at)`,
  addressesOf: `SELECT ip, first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt" FROM service_player_ips
    WHERE network_id = $1 AND uuid = $2 AND last_seen_at >= $3 ORDER BY last_seen_at DESC`,
  accountsOn: `SELECT uuid, last_seen_at AS "lastSeenAt" FROM service_player_ips
    WHERE network_id = $1 AND ip = $2 AND last_seen_at >= $3 LIMIT $4`,
});

/** Which addresses each player logged in from, and when, on PostgreSQL. */
export class PgPlayerIpStore {
  constructor(private readonly db: PgDb) {}

  async record(networkId: number, uuid: string, ip: string, at: number): Promise<void> {
    await this.db.run(PG_PLAYER_IP_SQL.record, [networkId, ip, uuid.toLowerCase(), at]);
  }

  /** The player's addresses seen since `sinceMs`, most recent first. */
  addressesOf(networkId: number, uuid: string, sinceMs: number): Promise<PlayerIp[]> {
    return this.db.rows(PG_PLAYER_IP_SQL.addressesOf, [networkId, uuid.toLowerCase(), sinceMs]);
  }

  /** Accounts seen on `ip` since `sinceMs`, at most `limit` of them. */
  accountsOn(networkId: number, ip: string, sinceMs: number, limit: number): Promise<AccountOnIp[]> {
    return this.db.rows(PG_PLAYER_IP_SQL.accountsOn, [networkId, ip, sinceMs, limit]);
  }
}
