import type { Clock } from '../ports/clock.js';
import type { TimerHandle, Timers } from '../ports/timers.js';
import type { RequestBudget } from './request-budget.js';

interface Waiter {
  resolve(): void;
}

/**
 * Callers waiting for a {@link RequestBudget}, first come first served. A slot is spent only when
 * a waiter is let through, so a waiter that gives up (its signal aborts) spends nothing and those
 * behind it move up: a join whose check timed out never delays a staff action queued after it.
 */
export class BudgetQueue {
  readonly #waiters: Waiter[] = [];
  #timer: { handle: TimerHandle; timers: Timers } | undefined;

  constructor(private readonly budget: RequestBudget) {}

  /** Resolves when the request may start; rejects with the signal's reason if it aborts first. */
  take(clock: Clock, timers: Timers, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#waiters.length === 0 && this.budget.waitMs(clock.now()) === 0) {
      this.budget.spend(clock.now());
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        if (this.#waiters.length === 0) this.#disarm();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#arm(clock, timers);
    });
  }

  /** How many callers wait now. */
  get waiting(): number {
    return this.#waiters.length;
  }

  #arm(clock: Clock, timers: Timers): void {
    if (this.#timer !== undefined || this.#waiters.length === 0) return;
    const handle = timers.setTimeout(() => {
      this.#timer = undefined;
      // The timer was armed for the head's slot: it goes even if the clock reads a little early.
      this.budget.spend(clock.now());
      this.#waiters.shift()?.resolve();
      while (this.#waiters.length > 0 && this.budget.waitMs(clock.now()) === 0) {
        this.budget.spend(clock.now());
        this.#waiters.shift()?.resolve();
      }
      this.#arm(clock, timers);
    }, this.budget.waitMs(clock.now()));
    this.#timer = { handle, timers };
  }

  #disarm(): void {
    if (this.#timer === undefined) return;
    this.#timer.timers.clearTimeout(this.#timer.handle);
    this.#timer = undefined;
  }
}
