import { type PgDb, pgStatements } from '../../sharing/pg-db.js';

/** The statements of {@link PgAddressRetentionStore}. */
export const PG_ADDRESS_RETENTION_SQL = pgStatements('addressRetention', {
  deleteHistory: `DELETE FROM service_player_ips WHERE (network_id, ip, uuid) IN (
      SELECT network_id, ip, uuid FROM service_player_ips WHERE last_seen_at < $1 LIMIT $2)`,
  clearLastAddress: `UPDATE service_players SET last_ip = NULL WHERE (network_id, uuid) IN (
      SELECT player.network_id, player.uuid FROM service_players AS player
      WHERE player.last_ip IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM service_player_ips AS seen
        WHERE seen.network_id = player.network_id AND seen.ip = player.last_ip AND seen.uuid = player.uuid)
      LIMIT $1)`,
});

/** Deletes login addresses past their retention, a bounded batch at a time, on PostgreSQL. */
export class PgAddressRetentionStore {
  constructor(private readonly db: PgDb) {}

  /** Deletes at most `limit` history rows last seen before `beforeMs`; returns how many. */
  deleteHistoryBefore(beforeMs: number, limit: number): Promise<number> {
    return this.db.run(PG_ADDRESS_RETENTION_SQL.deleteHistory, [beforeMs, limit]);
  }

  /** Clears at most `limit` players' last address that is no longer in the history; returns how many. */
  clearForgottenLastAddresses(limit: number): Promise<number> {
    return this.db.run(PG_ADDRESS_RETENTION_SQL.clearLastAddress, [limit]);
  }
}
