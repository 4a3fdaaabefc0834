import { hasErrorCode } from '../../errors/create-error.js';
import { type Clock, systemClock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { DatabaseUnavailableError } from '../store/database-unavailable.js';

/** One log line per this many ms while the database stays unavailable, however many requests it refuses. */
const LOG_EVERY_MS = 10_000;

/** The DatabaseUnavailableError a failure is (or was caused by), if any. */
export function databaseUnavailableOf(error: unknown): DatabaseUnavailableError | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth += 1) {
    if (hasErrorCode(current, 'BAILIFF_SERVICE_DATABASE_UNAVAILABLE')) return current as DatabaseUnavailableError;
    current = (current as { cause?: unknown } | null)?.cause;
  }
  return undefined;
}

/**
 * Logs the database being unavailable once, then at most every 10 s with how many requests were
 * answered 503 meanwhile, so an outage under load does not flood the log.
 */
export class UnavailabilityLog {
  private lastLoggedAt = Number.NEGATIVE_INFINITY;
  private refusedSinceLog = 0;

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  refused(unavailable: DatabaseUnavailableError, where: string): void {
    this.refusedSinceLog += 1;
    const nowMs = this.clock.now();
    if (nowMs - this.lastLoggedAt < LOG_EVERY_MS) return;
    this.logger.warn('database unavailable: answering 503', {
      where,
      problem: unavailable.message,
      refused: this.refusedSinceLog,
    });
    this.lastLoggedAt = nowMs;
    this.refusedSinceLog = 0;
  }
}
