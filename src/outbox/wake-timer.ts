import type { Clock } from '../ports/clock.js';
import type { TimerHandle, Timers } from '../ports/timers.js';

/** One pending wake-up at a time, always the earliest asked for. */
export class WakeTimer {
  private pending: { handle: TimerHandle; at: number } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly onWake: () => void,
  ) {}

  /** Wakes at `at` (epoch ms) unless an earlier wake-up is already set. */
  at(at: number): void {
    if (this.pending !== null && this.pending.at <= at) return;
    this.clear();
    const handle = this.timers.setTimeout(
      () => {
        this.pending = null;
        this.onWake();
      },
      Math.max(0, at - this.clock.now()),
    );
    this.pending = { handle, at };
  }

  clear(): void {
    if (this.pending === null) return;
    this.timers.clearTimeout(this.pending.handle);
    this.pending = null;
  }
}
