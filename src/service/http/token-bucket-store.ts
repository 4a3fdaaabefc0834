import type { Clock } from '../../ports/clock.js';

interface Bucket {
  tokens: number;
  refilledAtMs: number;
}

type StoreCallback = (error: Error | null, result: { current: number; ttl: number }) => void;

/** Most keys a store remembers; the least recently refilled are dropped first. */
const MAX_BUCKETS = 10_000;

/** One request counted against a bucket. */
export interface TakeResult {
  /** False when the bucket was empty (the request is over the limit). */
  allowed: boolean;
  /** What @fastify/rate-limit calls `current`: above `max` when over the limit. */
  current: number;
  /** How long until the next token. */
  ttlMs: number;
}

/**
 * A token bucket per key on the injected clock: `max` tokens, refilled continuously at `max` per
 * `timeWindowMs`. Shared by the HTTP routes and the stream's handshakes, so both draw on one budget.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Clock) {}

  take(key: string, timeWindowMs: number, max: number): TakeResult {
    const nowMs = this.clock.now();
    const refillPerMs = max / timeWindowMs;
    const bucket = this.buckets.get(key) ?? { tokens: max, refilledAtMs: nowMs };
    bucket.tokens = Math.min(max, bucket.tokens + (nowMs - bucket.refilledAtMs) * refillPerMs);
    bucket.refilledAtMs = nowMs;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    const msUntilToken = (tokens: number) => Math.max(1, Math.ceil((1 - tokens) / refillPerMs));
    if (bucket.tokens < 1) return { allowed: false, current: max + 1, ttlMs: msUntilToken(bucket.tokens) };
    bucket.tokens -= 1;
    return { allowed: true, current: max - Math.floor(bucket.tokens), ttlMs: msUntilToken(bucket.tokens % 1) };
  }
}

/**
 * {@link TokenBuckets} behind @fastify/rate-limit's store interface. The plugin counts a request as
 * over the limit when `current > max`; `ttl` is how long until the next token.
 */
export function tokenBucketStore(buckets: TokenBuckets) {
  return class TokenBucketStore {
    incr(key: string, callback: StoreCallback, timeWindowMs: number, max: number): void {
      const { current, ttlMs } = buckets.take(key, timeWindowMs, max);
      callback(null, { current, ttl: ttlMs });
    }

    // All routes share one bucket per key, so a route's child store is this store.
    child(): this {
      return this;
    }
  };
}
