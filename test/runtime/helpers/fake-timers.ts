import type { Clock } from '../../../src/ports/clock.js';
import type { TimerHandle, Timers } from '../../../src/ports/timers.js';

interface Pending {
  id: number;
  at: number;
  callback: () => void;
}

/** Lets queued promise continuations run (no real waiting on time). */
export const flushMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Timers and a clock driven by `advance`, for tests that must never sleep. */
export class FakeTimers implements Timers, Clock {
  private current = 0;
  private nextId = 1;
  private pending: Pending[] = [];

  now = (): number => this.current;

  setTimeout = (callback: () => void, delayMs: number): TimerHandle => {
    const id = this.nextId++;
    this.pending.push({ id, at: this.current + Math.max(0, delayMs), callback });
    return id;
  };

  clearTimeout = (handle: TimerHandle): void => {
    this.pending = this.pending.filter((entry) => entry.id !== handle);
  };

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Moves time forward, running due callbacks in order and flushing promises after each. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (let guard = 0; guard < 10_000; guard++) {
      const due = this.pending.filter((entry) => entry.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((entry) => entry !== due);
      this.current = due.at;
      due.callback();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }
}
