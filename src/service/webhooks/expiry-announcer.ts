import type { Timers } from '../../ports/timers.js';
import { BatchLoop } from '../batch-loop.js';
import type { ServiceContext } from '../context.js';
import { punishmentEvent } from './events.js';

export interface ExpiryAnnouncerSettings {
  /** Pause between two looks for ended punishments. */
  intervalMs: number;
  /** Punishments announced by one transaction; a full batch is followed at once by the next. */
  batchSize: number;
  /** A punishment that ended longer ago than this (the service was down) is marked, not announced. */
  maxLateMs: number;
}

// About a millisecond per batch: after a long stop, the backlog is announced between requests, never in front of one for long.
export const EXPIRY_BATCH_SIZE = 100;
export const EXPIRY_MAX_LATE_MS = 24 * 60 * 60 * 1000;
const ANNOUNCER = 'Bailiff';

/**
 * Raises `punishment.expired` when a temporary punishment's time is over (it runs from `started`).
 * The status stays as it is; only the announcement is recorded, so each end is announced once.
 */
export class ExpiryAnnouncer {
  private readonly loop: BatchLoop;

  constructor(
    private readonly context: ServiceContext,
    timers: Timers,
    private readonly settings: ExpiryAnnouncerSettings,
  ) {
    this.loop = new BatchLoop(
      timers,
      context.logger,
      'punishment expiry announcement',
      settings.intervalMs,
      async () => (await this.announceBatch()) === settings.batchSize,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops; resolves once a batch under way has finished. */
  close(): Promise<void> {
    return this.loop.close();
  }

  /** Announces one batch; returns how many punishments it took. */
  announceBatch(): Promise<number> {
    const { storage, clock, rules, webhooks } = this.context;
    const nowMs = clock.now();
    return storage.transaction(async (stores) => {
      const rows = await stores.expiries.endedUnannounced(nowMs, this.settings.batchSize);
      for (const row of rows) {
        const endedAtMs = (row.started_at ?? row.created_at) + row.duration;
        if (nowMs - endedAtMs <= this.settings.maxLateMs) {
          const event = punishmentEvent('punishment.expired', row, rules, nowMs, ANNOUNCER);
          await webhooks.record(row.network_id, [event], stores);
        }
        await stores.expiries.markAnnounced(row.network_id, row.id, nowMs);
      }
      return rows.length;
    });
  }
}
