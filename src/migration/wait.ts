import type { Timers } from '../ports/timers.js';

/** A cancellable wait on the injected timers (never a real sleep in tests). */
export type Wait = (delayMs: number) => { promise: Promise<void>; cancel: () => void };

export function waitOn(timers: Timers): Wait {
  return (delayMs) => {
    let handle: unknown;
    const promise = new Promise<void>((resolve) => {
      handle = timers.setTimeout(resolve, delayMs);
    });
    return { promise, cancel: () => timers.clearTimeout(handle) };
  };
}
