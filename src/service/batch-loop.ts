import type { Logger } from '../ports/logger.js';
import type { TimerHandle, Timers } from '../ports/timers.js';
import { guardedPromise } from './guard.js';

/**
 * Runs a batch at start, then one every `intervalMs`. A batch that reports a backlog (it came back
 * full) is followed on the next timer turn, so a large backlog never holds the service for long.
 */
export class BatchLoop {
  private timer: TimerHandle | undefined;
  private isClosed = false;
  private running: Promise<void> | undefined;

  /** @param batch does one batch; returns true when more work is waiting. */
  constructor(
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly what: string,
    private readonly intervalMs: number,
    private readonly batch: () => Promise<boolean>,
  ) {}

  /** Runs the first batch now. */
  start(): void {
    this.run();
  }

  /** Stops the loop; resolves once a batch under way has finished. */
  async close(): Promise<void> {
    this.isClosed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private run(): void {
    let isBacklog = false;
    const batch = (async () => {
      isBacklog = await this.batch();
    })();
    this.running = guardedPromise(this.logger, this.what, {}, batch).then(() => {
      this.running = undefined;
      if (this.isClosed) return;
      this.timer = this.timers.setTimeout(() => this.run(), isBacklog ? 0 : this.intervalMs);
    });
  }
}
