import type { Punishment } from '../../src/contract/schemas.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';

/** The most punishments `recent` answers (docs/contract/moderation-api.md, limits). */
export const RECENT_PAGE_SIZE = 100;

/** A poll whose full page may have hidden older punishments. */
export interface SaturationReport {
  /** Epoch ms of the poll that saw it. */
  detectedAt: number;
  /**
   * Punishments probably hidden between the previous poll and this page, from the page's own rate;
   * undefined on the first poll, when nothing tells how many older ones the window holds.
   */
  estimatedMissed: number | undefined;
}

export interface SaturationWatch {
  /** Looks at one answered page (newest first); returns the report when it may have hidden punishments. */
  observe(punishments: readonly Punishment[]): SaturationReport | undefined;
  /** Set while polls keep overflowing; cleared by the first page that reaches back to the previous one. */
  readonly current: SaturationReport | undefined;
  /** The stream listed everything up to `newestMs` (a snapshot or a push): the next poll starts from there. */
  coveredUpTo(newestMs: number): void;
}

/**
 * Detects the blind spot of a contract-only service: `recent` lists at most the newest 100, so a
 * full page whose oldest item is newer than the newest item of the previous poll leaves a gap
 * nobody listed. The first poll has no previous one: a full page there hides the older ones.
 */
export function createSaturationWatch(options: { clock: Clock; logger: Logger }): SaturationWatch {
  let previousNewestMs: number | undefined;
  let firstPoll = true;
  let current: SaturationReport | undefined;

  return {
    get current() {
      return current;
    },
    coveredUpTo(newestMs) {
      if (Number.isFinite(newestMs)) previousNewestMs = Math.max(previousNewestMs ?? newestMs, newestMs);
      firstPoll = false;
      current = undefined;
    },
    observe(punishments) {
      const times = punishments.map((punishment) => Date.parse(punishment.createdAt));
      const newestMs = Math.max(...times);
      const oldestMs = Math.min(...times);
      const full = punishments.length >= RECENT_PAGE_SIZE;
      const wasFirst = firstPoll;
      const before = previousNewestMs;
      firstPoll = false;
      if (punishments.length > 0) previousNewestMs = Math.max(before ?? newestMs, newestMs);

      const hidesOlder = full && (wasFirst || (before !== undefined && oldestMs > before));
      if (!hidesOlder) {
        if (current) options.logger.info('polling caught up with the service: pages reach the previous poll again');
        current = undefined;
        return undefined;
      }
      const estimatedMissed =
        before === undefined ? undefined : estimateGap(punishments.length, newestMs, oldestMs, oldestMs - before);
      current = { detectedAt: options.clock.now(), estimatedMissed };
      options.logger.warn(
        wasFirst
          ? 'recent answered a full page at start: older punishments were not listed (the login check or the stream covers them)'
          : 'recent answered a full page that does not reach the previous poll: punishments may have been missed',
        { estimatedMissed, oldest: new Date(oldestMs).toISOString(), newest: new Date(newestMs).toISOString() },
      );
      return current;
    },
  };
}

/** Items strictly inside the gap at the page's own rate (items per ms); at least one. */
function estimateGap(count: number, newestMs: number, oldestMs: number, gapMs: number): number {
  const spanMs = newestMs - oldestMs;
  if (spanMs <= 0) return count;
  return Math.max(1, Math.round(((count - 1) / spanMs) * gapMs) - 1);
}
