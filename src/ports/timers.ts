/** An opaque handle returned by {@link Timers.setTimeout}. */
export type TimerHandle = unknown;

/** Timer functions, injected so tests can drive them with a fake clock. */
export interface Timers {
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemTimers: Timers = {
  setTimeout: (callback, delayMs) => {
    const handle = setTimeout(callback, delayMs);
    // A pending retry or poll must never keep a shutting-down process alive.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
