import type { Clock } from '../../src/ports/clock.js';
import type { TimerHandle, Timers } from '../../src/ports/timers.js';

/** Lets queued promise callbacks and p-queue bookkeeping run; no real waiting. */
export async function settle(rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

interface FakeTimer {
  id: number;
  at: number;
  delayMs: number;
  callback: () => void;
}

/**
 * The test kit's clock and timers: time moves only in `advance`, which fires due timers in order
 * and lets promises settle after each, so no test sleeps.
 * @param start epoch ms of the clock. @default 2026-01-01T00:00:00Z
 */
export class FakeTime implements Clock, Timers {
  private current: number;
  private nextId = 1;
  private timers: FakeTimer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now = (): number => this.current;

  setTimeout = (callback: () => void, delayMs: number): TimerHandle => {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, delayMs), delayMs, callback };
    this.timers.push(timer);
    return timer.id;
  };

  clearTimeout = (handle: TimerHandle): void => {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  };

  /** Moves time forward by `ms`, firing due timers in order and settling after each. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (let fired = 0; fired < 10_000; fired += 1) {
      await settle();
      const due = this.timers.filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.current = Math.max(this.current, due.at);
      due.callback();
    }
    this.current = target;
    await settle();
  }

  /** Timers armed and not yet fired or cleared. */
  get pendingCount(): number {
    return this.timers.length;
  }

  /** The delays the pending timers were armed with, in the order they were armed. */
  delays(): number[] {
    return this.timers.map((timer) => timer.delayMs);
  }

  /** Fires every pending timer now, in the order they were armed, without moving the clock. */
  fireAll(): void {
    const due = this.timers;
    this.timers = [];
    for (const timer of due) timer.callback();
  }

  /** Moves the clock without firing anything or awaiting: a process that was down, or a test with no timers. */
  jump(ms: number): void {
    this.current += ms;
  }
}
