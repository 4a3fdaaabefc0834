import type { Clock } from '../../ports/clock.js';

interface Bucket {
  tokens: number;
  refilledAtMs: number;
}

/** A bucket's state after a take or a look. */
export interface BucketState {
  /** The request may go ahead (a take spent one token for it). */
  isAllowed: boolean;
  /** Whole tokens left after this take. */
  tokensLeft: number;
  /** How long until the bucket holds one more whole token. */
  msUntilToken: number;
}

/** What a bucket holds at most and how fast it fills again. */
export interface BucketSize {
  capacity: number;
  refillPerMinute: number;
}

/**
 * Token buckets by key on the injected clock: a new bucket is full, and fills continuously at its
 * rate up to its capacity. At most `maxKeys` buckets are kept; the least recently used is dropped
 * first (it comes back full), so memory stays bounded whatever the number of keys.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys: number,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  /** Spends one token of `key`'s bucket when it has one. */
  take(key: string, size: BucketSize): BucketState {
    return this.visit(key, size, true);
  }

  /** The bucket's state, spending nothing: allowed when it holds a whole token. */
  peek(key: string, size: BucketSize): BucketState {
    return this.visit(key, size, false);
  }

  private visit(key: string, { capacity, refillPerMinute }: BucketSize, isSpending: boolean): BucketState {
    const nowMs = this.clock.now();
    const refillPerMs = refillPerMinute / 60_000;
    const known = this.buckets.get(key);
    // A bucket never seen is full: looking at it need not remember it.
    if (!known && !isSpending) {
      return { isAllowed: true, tokensLeft: capacity, msUntilToken: Math.ceil(1 / refillPerMs) };
    }
    const bucket = known ?? { tokens: capacity, refilledAtMs: nowMs };
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, nowMs - bucket.refilledAtMs) * refillPerMs);
    bucket.refilledAtMs = nowMs;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    const isAllowed = bucket.tokens >= 1;
    if (isAllowed && isSpending) bucket.tokens -= 1;
    const missing = bucket.tokens >= 1 ? 1 - (bucket.tokens % 1) : 1 - bucket.tokens;
    return {
      isAllowed,
      tokensLeft: Math.floor(bucket.tokens),
      msUntilToken: Math.max(1, Math.ceil(missing / refillPerMs)),
    };
  }
}
