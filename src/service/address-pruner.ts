import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { TimerHandle, Timers } from '../ports/timers.js';
import { guarded } from './guard.js';
import type { AddressRetentionStore } from './store/address-retention.js';

export interface AddressPrunerSettings {
  /** Addresses last seen longer ago than this are deleted. */
  retentionMs: number;
  /** Pause between two runs. */
  intervalMs: number;
  /** Rows deleted by one statement; the event loop is free between batches. */
  batchSize: number;
}

export const ADDRESS_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
export const ADDRESS_PRUNE_BATCH_SIZE = 1000;

/**
 * Keeps the players' address history within its retention: a run at start, then one every
 * `intervalMs`. A run deletes one batch per timer turn and goes on while batches come back full,
 * so a large backlog never holds the service for long.
 */
export class AddressPruner {
  private timer: TimerHandle | undefined;
  private isClosed = false;

  constructor(
    private readonly store: AddressRetentionStore,
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly settings: AddressPrunerSettings,
  ) {}

  /** Runs the first batch now. */
  start(): void {
    this.runBatch();
  }

  close(): void {
    this.isClosed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    if (this.isClosed) return;
    this.timer = this.timers.setTimeout(() => this.runBatch(), delayMs);
  }

  private runBatch(): void {
    let isBacklog = false;
    guarded(this.logger, 'address history pruning', {}, () => {
      const { batchSize, retentionMs } = this.settings;
      const deleted = this.store.deleteHistoryBefore(this.clock.now() - retentionMs, batchSize);
      const cleared = deleted < batchSize ? this.store.clearForgottenLastAddresses(batchSize) : 0;
      isBacklog = deleted === batchSize || cleared === batchSize;
    });
    this.schedule(isBacklog ? 0 : this.settings.intervalMs);
  }
}
