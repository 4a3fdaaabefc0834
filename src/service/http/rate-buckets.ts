import type { BucketSize, BucketState } from './token-buckets.js';

/**
 * Token buckets by key, as the rate limiter spends them: in memory for one instance
 * ({@link TokenBuckets}), or shared by every instance through the database (SharedTokenBuckets),
 * which answers from memory most of the time and asynchronously when it must ask the database.
 */
export interface RateBuckets {
  take(key: string, size: BucketSize): BucketState | Promise<BucketState>;
}
