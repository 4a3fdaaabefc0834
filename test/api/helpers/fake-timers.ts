import type { TimerHandle, Timers } from '../../../src/ports/timers.js';

/** Timers that only fire when a test says so. */
export class FakeTimers implements Timers {
  readonly pending = new Map<number, { callback: () => void; delayMs: number }>();
  private nextId = 1;

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.pending.set(id, { callback, delayMs });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending.delete(handle as number);
  }

  /** Delays of the timers armed and not yet fired or cleared. */
  delays(): number[] {
    return [...this.pending.values()].map((timer) => timer.delayMs);
  }

  fireAll(): void {
    const due = [...this.pending.entries()];
    this.pending.clear();
    for (const [, timer] of due) timer.callback();
  }
}
