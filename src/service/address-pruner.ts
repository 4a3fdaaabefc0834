import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { Timers } from '../ports/timers.js';
import { BatchLoop } from './batch-loop.js';
import type { AddressRetentionPort } from './store/ports/address-retention.js';

export interface AddressPrunerSettings {
  /** Addresses last seen longer ago than this are deleted. */
  retentionMs: number;
  /** Pause between two runs. */
  intervalMs: number;
  /** Rows deleted by one statement; the event loop is free between batches. */
  batchSize: number;
}

export const ADDRESS_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
// About a millisecond of deletes: a backlog is worked off between requests, never in front of one for long.
export const ADDRESS_PRUNE_BATCH_SIZE = 200;

/**
 * Keeps the players' address history within its retention: a run at start, then one every
 * `intervalMs`. A run deletes one batch per timer turn and goes on while batches come back full,
 * so a large backlog never holds the service for long.
 */
export class AddressPruner {
  private readonly loop: BatchLoop;

  constructor(
    private readonly store: AddressRetentionPort,
    private readonly clock: Clock,
    timers: Timers,
    logger: Logger,
    private readonly settings: AddressPrunerSettings,
  ) {
    this.loop = new BatchLoop(timers, logger, 'address history pruning', settings.intervalMs, () => this.pruneBatch());
  }

  /** Runs the first batch now. */
  start(): void {
    this.loop.start();
  }

  /** Stops; resolves once a batch under way has finished. */
  close(): Promise<void> {
    return this.loop.close();
  }

  /** Deletes one batch; true when a batch came back full (more is waiting). */
  private async pruneBatch(): Promise<boolean> {
    const { batchSize, retentionMs } = this.settings;
    const deleted = await this.store.deleteHistoryBefore(this.clock.now() - retentionMs, batchSize);
    const cleared = deleted < batchSize ? await this.store.clearForgottenLastAddresses(batchSize) : 0;
    return deleted === batchSize || cleared === batchSize;
  }
}
