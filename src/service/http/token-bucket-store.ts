import type { Clock } from '../../ports/clock.js';

interface Bucket {
  tokens: number;
  refilledAtMs: number;
}

type StoreCallback = (error: Error | null, result: { current: number; ttl: number }) => void;

/** Most keys a store remembers; the least recently refilled are dropped first. */
const MAX_BUCKETS = 10_000;

/**
 * A token bucket per key behind @fastify/rate-limit's store interface, on the injected clock:
 * `max` tokens, refilled continuously at `max` per `timeWindow`. The plugin counts a request as
 * over the limit when `current > max`; `ttl` is how long until the next token.
 */
export function tokenBucketStore(clock: Clock) {
  return class TokenBucketStore {
    private readonly buckets = new Map<string, Bucket>();

    incr(key: string, callback: StoreCallback, timeWindowMs: number, max: number): void {
      const nowMs = clock.now();
      const refillPerMs = max / timeWindowMs;
      const bucket = this.buckets.get(key) ?? { tokens: max, refilledAtMs: nowMs };
      bucket.tokens = Math.min(max, bucket.tokens + (nowMs - bucket.refilledAtMs) * refillPerMs);
      bucket.refilledAtMs = nowMs;
      this.buckets.delete(key);
      this.buckets.set(key, bucket);
      if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
      const msUntilToken = (tokens: number) => Math.max(1, Math.ceil((1 - tokens) / refillPerMs));
      if (bucket.tokens < 1) {
        callback(null, { current: max + 1, ttl: msUntilToken(bucket.tokens) });
        return;
      }
      bucket.tokens -= 1;
      callback(null, { current: max - Math.floor(bucket.tokens), ttl: msUntilToken(bucket.tokens % 1) });
    }

    // All routes share one bucket per key, so a route's child store is this store.
    child(): this {
      return this;
    }
  };
}
