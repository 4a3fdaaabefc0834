import type { Db } from '../../db/open-db.js';

/** The statements of {@link AddressRetentionStore}: batches bounded by LIMIT, run by the address pruner off the request path. */
export const ADDRESS_RETENTION_SQL = {
  deleteHistory: `DELETE FROM service_player_ips WHERE (network_id, ip, uuid) IN (
         SELECT network_id, ip, uuid FROM service_player_ips WHERE last_seen_at < @beforeMs LIMIT @limit)`,
  clearLastAddress: `UPDATE service_players SET last_ip = NULL WHERE (network_id, uuid) IN (
         SELECT player.network_id, player.uuid FROM service_players AS player
         WHERE player.last_ip IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM service_player_ips AS seen
           WHERE seen.network_id = player.network_id AND seen.ip = player.last_ip AND seen.uuid = player.uuid)
         LIMIT @limit)`,
} as const;

/**
 * Deletes login addresses past their retention, a bounded batch at a time: history rows last seen
 * before the cut-off, then each player's "last address" once its history row is gone.
 */
export class AddressRetentionStore {
  private readonly deleteHistory;
  private readonly clearLastAddress;

  constructor(db: Db) {
    this.deleteHistory = db.prepare<{ beforeMs: number; limit: number }>(ADDRESS_RETENTION_SQL.deleteHistory);
    this.clearLastAddress = db.prepare<{ limit: number }>(ADDRESS_RETENTION_SQL.clearLastAddress);
  }

  /** Deletes at most `limit` history rows last seen before `beforeMs`; returns how many. */
  deleteHistoryBefore(beforeMs: number, limit: number): number {
    return this.deleteHistory.run({ beforeMs, limit }).changes;
  }

  /** Clears at most `limit` players' last address that is no longer in the history; returns how many. */
  clearForgottenLastAddresses(limit: number): number {
    return this.clearLastAddress.run({ limit }).changes;
  }
}
