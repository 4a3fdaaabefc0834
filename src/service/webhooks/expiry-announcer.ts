import type { Db } from '../../db/open-db.js';
import type { Timers } from '../../ports/timers.js';
import { BatchLoop } from '../batch-loop.js';
import type { ServiceContext } from '../context.js';
import type { PunishmentRow } from '../store/punishment-rows.js';
import { punishmentEvent } from './events.js';

export interface ExpiryAnnouncerSettings {
  /** Pause between two looks for ended punishments. */
  intervalMs: number;
  /** Punishments announced by one transaction; a full batch is followed at once by the next. */
  batchSize: number;
  /** A punishment that ended longer ago than this (the service was down) is marked, not announced. */
  maxLateMs: number;
}

export const EXPIRY_BATCH_SIZE = 500;
export const EXPIRY_MAX_LATE_MS = 24 * 60 * 60 * 1000;
const ANNOUNCER = 'Bailiff';

/** The statements of the expiry announcer; test/service/query-plans.test.ts checks each one's plan. */
export const EXPIRY_SQL = {
  // The same expression and conditions as the partial index service_punishments_unannounced_end.
  ended: `SELECT * FROM service_punishments
       WHERE status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL
         AND started_at + duration <= @nowMs
       ORDER BY started_at + duration LIMIT @limit`,
  mark: 'UPDATE service_punishments SET expiry_announced_at = @nowMs WHERE network_id = @networkId AND id = @id',
} as const;

class EndedPunishments {
  private readonly ended;
  private readonly mark;

  constructor(db: Db) {
    this.ended = db.prepare<{ nowMs: number; limit: number }, PunishmentRow>(EXPIRY_SQL.ended);
    this.mark = db.prepare<{ networkId: number; id: string; nowMs: number }>(EXPIRY_SQL.mark);
  }

  take(nowMs: number, limit: number): PunishmentRow[] {
    return this.ended.all({ nowMs, limit });
  }

  markAnnounced(row: PunishmentRow, nowMs: number): void {
    this.mark.run({ networkId: row.network_id, id: row.id, nowMs });
  }
}

/**
 * Raises `punishment.expired` when a temporary punishment's time is over (it runs from `started`).
 * The status stays as it is; only the announcement is recorded, so each end is announced once.
 */
export class ExpiryAnnouncer {
  private readonly punishments: EndedPunishments;
  private readonly loop: BatchLoop;

  constructor(
    private readonly context: ServiceContext,
    timers: Timers,
    private readonly settings: ExpiryAnnouncerSettings,
  ) {
    this.punishments = new EndedPunishments(context.db);
    this.loop = new BatchLoop(
      timers,
      context.logger,
      'punishment expiry announcement',
      settings.intervalMs,
      () => this.announceBatch() === settings.batchSize,
    );
  }

  start(): void {
    this.loop.start();
  }

  close(): void {
    this.loop.close();
  }

  /** Announces one batch; returns how many punishments it took. */
  announceBatch(): number {
    const { db, clock, rules, webhooks } = this.context;
    const nowMs = clock.now();
    return db.transaction(() => {
      const rows = this.punishments.take(nowMs, this.settings.batchSize);
      for (const row of rows) {
        const endedAtMs = (row.started_at ?? row.created_at) + row.duration;
        if (nowMs - endedAtMs <= this.settings.maxLateMs) {
          webhooks.record(row.network_id, [punishmentEvent('punishment.expired', row, rules, nowMs, ANNOUNCER)]);
        }
        this.punishments.markAnnounced(row, nowMs);
      }
      return rows.length;
    })();
  }
}
