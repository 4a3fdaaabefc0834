import type { Logger } from '../ports/logger.js';
import type { TimerHandle, Timers } from '../ports/timers.js';
import { guarded } from './guard.js';

/**
 * Runs a batch at start, then one every `intervalMs`. A batch that reports a backlog (it came back
 * full) is followed on the next timer turn, so a large backlog never holds the service for long.
 */
export class BatchLoop {
  private timer: TimerHandle | undefined;
  private isClosed = false;

  /** @param batch does one batch; returns true when more work is waiting. */
  constructor(
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly what: string,
    private readonly intervalMs: number,
    private readonly batch: () => boolean,
  ) {}

  /** Runs the first batch now. */
  start(): void {
    this.run();
  }

  close(): void {
    this.isClosed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    let isBacklog = false;
    guarded(this.logger, this.what, {}, () => {
      isBacklog = this.batch();
    });
    if (this.isClosed) return;
    this.timer = this.timers.setTimeout(() => this.run(), isBacklog ? 0 : this.intervalMs);
  }
}
