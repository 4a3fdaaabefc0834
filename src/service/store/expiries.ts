import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { ExpiryStorePort } from './ports/expiries.js';
import type { PunishmentRow } from './punishment-rows.js';
import { PUNISHMENT_COLUMNS } from './punishments.js';

// The expression of the partial index service_punishments_unannounced_end.
const END = raw<number>`(started_at + duration)`;

/** The statements of {@link ExpiryStore}; the query-plan tests check each one's plan. */
export const EXPIRY_STATEMENTS = {
  // The conditions of service_punishments_unannounced_end. Rows another instance's announcer holds (its
  // transaction marks them) are skipped, so each end is announced once.
  ended: prepare<{ nowMs: number; limit: number }, PunishmentRow>('expiries.ended', ({ db, choices }, p) =>
    choices.skipLockedRows(
      db
        .selectFrom('service_punishments')
        .select(PUNISHMENT_COLUMNS)
        .where('status', '=', raw.lit('active'))
        .where('duration', '>=', raw.lit(0))
        .where('started_at', 'is not', null)
        .where('expiry_announced_at', 'is', null)
        .where(END, '<=', p.nowMs)
        .orderBy(END)
        .limit(p.limit),
    ),
  ),
  mark: prepare<{ networkId: number; id: string; nowMs: number }, never>('expiries.mark', ({ db }, p) =>
    db
      .updateTable('service_punishments')
      .set({ expiry_announced_at: p.nowMs })
      .where('network_id', '=', p.networkId)
      .where('id', '=', p.id),
  ),
};

const q = EXPIRY_STATEMENTS;

/** Temporary punishments whose time is over and whose end the expiry announcer has not announced yet. */
export class ExpiryStore implements ExpiryStorePort {
  constructor(private readonly sql: SqlContext) {}

  endedUnannounced(nowMs: number, limit: number): Promise<PunishmentRow[]> {
    return q.ended.all(this.sql, { nowMs, limit });
  }

  async markAnnounced(networkId: number, id: string, nowMs: number): Promise<void> {
    await q.mark.run(this.sql, { networkId, id, nowMs });
  }
}
