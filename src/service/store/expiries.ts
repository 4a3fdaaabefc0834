import type { Db } from '../../db/open-db.js';
import type { PunishmentRow } from './punishment-rows.js';

/** The statements of {@link ExpiryStore}; test/service/query-plans.test.ts checks each one's plan. */
export const EXPIRY_SQL = {
  // The same expression and conditions as the partial index service_punishments_unannounced_end.
  ended: `SELECT * FROM service_punishments
       WHERE status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL
         AND started_at + duration <= @nowMs
       ORDER BY started_at + duration LIMIT @limit`,
  mark: 'UPDATE service_punishments SET expiry_announced_at = @nowMs WHERE network_id = @networkId AND id = @id',
} as const;

/** Temporary punishments whose time is over and whose end the expiry announcer has not announced yet. */
export class ExpiryStore {
  private readonly ended;
  private readonly mark;

  constructor(db: Db) {
    this.ended = db.prepare<{ nowMs: number; limit: number }, PunishmentRow>(EXPIRY_SQL.ended);
    this.mark = db.prepare<{ networkId: number; id: string; nowMs: number }>(EXPIRY_SQL.mark);
  }

  endedUnannounced(nowMs: number, limit: number): PunishmentRow[] {
    return this.ended.all({ nowMs, limit });
  }

  markAnnounced(networkId: number, id: string, nowMs: number): void {
    this.mark.run({ networkId, id, nowMs });
  }
}
