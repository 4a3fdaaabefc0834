import type { Timers } from '../../../src/ports/timers.js';

/**
 * Timers that fire on the next microtask and record every delay asked for, so nothing sleeps.
 * Delays at or above `neverFireAtOrAbove` are recorded but never fire (a time limit the test
 * expects not to reach, such as the outbox drain wait).
 */
export function recordingTimers(options: { neverFireAtOrAbove?: number } = {}): Timers & { delays: number[] } {
  const delays: number[] = [];
  const limit = options.neverFireAtOrAbove ?? Number.POSITIVE_INFINITY;
  return {
    delays,
    setTimeout(callback, delayMs) {
      delays.push(delayMs);
      const handle = { cancelled: false };
      if (delayMs < limit) {
        queueMicrotask(() => {
          if (!handle.cancelled) callback();
        });
      }
      return handle;
    },
    clearTimeout(handle) {
      if (handle) (handle as { cancelled: boolean }).cancelled = true;
    },
  };
}

export const fixedClock = (nowMs: number) => ({ now: () => nowMs });
