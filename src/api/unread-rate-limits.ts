import type { EndpointName } from './errors.js';

/** A 429 whose status line has arrived and whose body, which may say how long to wait, is still being read. */
export interface UnreadRateLimit {
  endpoint: EndpointName;
  /** The reading call's deadline: by then its body has been read or the call has failed. */
  untilMs: number;
}

/**
 * The 429s of one lane still being read, and the callers waiting until they are. Between a
 * 429's status line and the end of its body the wait is unknown, so nothing may leave: a body
 * that comes late (a proxy streaming the answer) would otherwise let requests out inside the window.
 */
export class UnreadRateLimits {
  readonly #pending = new Set<UnreadRateLimit>();
  readonly #waiters = new Set<() => void>();

  /** Records a 429 being read; the returned function says it has been (call it once its wait is recorded). */
  add(rateLimit: UnreadRateLimit): () => void {
    this.#pending.add(rateLimit);
    return () => {
      if (!this.#pending.delete(rateLimit) || this.#pending.size > 0) return;
      const waiters = [...this.#waiters];
      this.#waiters.clear();
      for (const resolve of waiters) resolve();
    };
  }

  /** The one being read that is awaited longest, ignoring any past its deadline. */
  latest(now: number): UnreadRateLimit | undefined {
    let latest: UnreadRateLimit | undefined;
    for (const rateLimit of this.#pending) {
      if (rateLimit.untilMs > now && (latest === undefined || rateLimit.untilMs > latest.untilMs)) latest = rateLimit;
    }
    return latest;
  }

  /**
   * Resolves once none is being read, or undefined when none is now (or all are past their
   * deadline); rejects with the signal's reason if it aborts first.
   */
  read(now: number, signal?: AbortSignal): Promise<void> | undefined {
    if (this.latest(now) === undefined) return undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#waiters.delete(done);
        reject(signal?.reason);
      };
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#waiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
