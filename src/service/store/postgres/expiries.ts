import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { PunishmentRow } from '../punishment-rows.js';
import { PUNISHMENT_COLUMNS } from './punishment-columns.js';

/** The statements of {@link PgExpiryStore}. */
export const PG_EXPIRY_SQL = pgStatements('expiries', {
  // The same expression and conditions as the partial index service_punishments_unannounced_end. Rows another
  // instance's announcer holds (its transaction marks them) are skipped, so each end is announced once.
  ended: `SELECT ${PUNISHMENT_COLUMNS} FROM service_punishments
    WHERE status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL
      AND (started_at + duration) <= $1
    ORDER BY (started_at + duration) LIMIT $2 FOR UPDATE SKIP LOCKED`,
  mark: 'UPDATE service_punishments SET expiry_announced_at = $3 WHERE network_id = $1 AND id = $2',
});

/** Temporary punishments whose time is over and whose end was not announced yet, on PostgreSQL. */
export class PgExpiryStore {
  constructor(private readonly db: PgDb) {}

  endedUnannounced(nowMs: number, limit: number): Promise<PunishmentRow[]> {
    return this.db.rows(PG_EXPIRY_SQL.ended, [nowMs, limit]);
  }

  async markAnnounced(networkId: number, id: string, nowMs: number): Promise<void> {
    await this.db.run(PG_EXPIRY_SQL.mark, [networkId, id, nowMs]);
  }
}
