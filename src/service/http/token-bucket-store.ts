import type { RateBuckets } from './rate-buckets.js';
import type { BucketState } from './token-buckets.js';

type StoreCallback = (error: Error | null, result: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit's store interface over shared {@link RateBuckets}: `max` tokens, refilled
 * continuously at `max` per `timeWindow`. The plugin counts a request as over the limit when
 * `current > max`; `ttl` is how long until the next token.
 */
export function tokenBucketStore(buckets: RateBuckets) {
  return class TokenBucketStore {
    incr(key: string, callback: StoreCallback, timeWindowMs: number, max: number): void {
      const answer = (state: BucketState) =>
        callback(null, { current: state.isAllowed ? max - state.tokensLeft : max + 1, ttl: state.msUntilToken });
      const taken = buckets.take(key, { capacity: max, refillPerMinute: (max * 60_000) / timeWindowMs });
      if (taken instanceof Promise) taken.then(answer, (error: Error) => callback(error, { current: 0, ttl: 0 }));
      else answer(taken);
    }

    // Every route shares the buckets; a route's own bucket is told apart by its key (`groupId`).
    child(): this {
      return this;
    }
  };
}
