import type { ModerationApi } from '../api/moderation-api.js';
import { MAX_MIGRATION_MESSAGE_LENGTH, type MigrationProgressBody, type MigrationStatus } from '../contract/schemas.js';
import type { Outbox } from '../outbox/types.js';
import type { Logger } from '../ports/logger.js';
import { errorMessage } from './errors.js';
import type { Wait } from './wait.js';

export interface ProgressReporterOptions {
  /** Names the run: one ordering key per run keeps its progress calls in order. */
  runId: string;
  /** Durable path (preferred); without it calls go straight to the client, best effort. */
  outbox?: Outbox;
  client: ModerationApi;
  logger: Logger;
}

/**
 * Sends `migration/progress` calls for one run. Through the outbox each call is a row with the
 * run's ordering key, so the service receives them in the order they were made; the reporter
 * remembers which of its rows are not yet delivered so the run can wait for them at the end.
 */
export class ProgressReporter {
  private sequence = 0;
  private readonly undelivered = new Set<number>();
  private directChain: Promise<void> = Promise.resolve();
  private directInFlight = 0;
  private readonly settledListeners = new Set<() => void>();
  private readonly detach: () => void;

  constructor(private readonly options: ProgressReporterOptions) {
    const settled = ({ id }: { id: number }) => {
      if (this.undelivered.delete(id) && this.undelivered.size === 0) this.notifySettled();
    };
    const dead = (event: { id: number; reason: string }) => {
      if (this.undelivered.has(event.id))
        options.logger.warn('migration progress call dead-lettered', { reason: event.reason });
      settled(event);
    };
    options.outbox?.events.on('outbox:sent', settled);
    options.outbox?.events.on('outbox:dead', dead);
    this.detach = () => {
      options.outbox?.events.off('outbox:sent', settled);
      options.outbox?.events.off('outbox:dead', dead);
    };
  }

  /**
   * Reports one step. `droppable` steps (intermediate counts) are skipped when sent directly
   * and the previous call is still in flight, so a slow service cannot pile calls up in memory.
   */
  report(
    status: MigrationStatus,
    message: string,
    counts: { processed?: number; total?: number } = {},
    droppable = false,
  ): void {
    const body: MigrationProgressBody = { status, message: message.slice(0, MAX_MIGRATION_MESSAGE_LENGTH), ...counts };
    const { outbox, runId, client, logger } = this.options;
    if (outbox) {
      this.sequence++;
      const key = `migration:${runId}`;
      try {
        const result = outbox.enqueue(
          { operation: 'migrationProgress', payload: body },
          { idempotencyKey: `${key}:${this.sequence}`, orderingKey: key },
        );
        if (result.inserted) this.undelivered.add(result.id);
      } catch (error) {
        logger.warn('migration progress not enqueued', { status, error: errorMessage(error) });
      }
      return;
    }
    if (droppable && this.directInFlight > 0) return;
    this.directInFlight++;
    this.directChain = this.directChain
      .then(() => client.migrationProgress(body))
      .then(
        () => undefined,
        (error) => logger.warn('migration progress call failed', { status, error: errorMessage(error) }),
      )
      .finally(() => {
        this.directInFlight--;
      });
  }

  /** Resolves true once every call made so far was delivered (or dead-lettered), false after `timeoutMs`. */
  async settle(timeoutMs: number, wait: Wait): Promise<boolean> {
    if (!this.options.outbox) {
      const timer = wait(timeoutMs);
      const delivered = await Promise.race([this.directChain.then(() => true), timer.promise.then(() => false)]);
      timer.cancel();
      return delivered;
    }
    if (this.undelivered.size === 0) return true;
    const timer = wait(timeoutMs);
    let listener: (() => void) | undefined;
    const drained = new Promise<boolean>((resolve) => {
      listener = () => resolve(true);
      this.settledListeners.add(listener);
    });
    const result = await Promise.race([drained, timer.promise.then(() => false)]);
    timer.cancel();
    if (listener) this.settledListeners.delete(listener);
    return result;
  }

  /** Calls not yet delivered through the outbox (they stay durable there). */
  get undeliveredCount(): number {
    return this.undelivered.size;
  }

  close(): void {
    this.detach();
  }

  private notifySettled(): void {
    for (const listener of this.settledListeners) listener();
  }
}
