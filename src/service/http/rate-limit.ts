import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../ports/clock.js';
import { HttpError } from './errors.js';
import type { RateBuckets } from './rate-buckets.js';
import { tokenBucketStore } from './token-bucket-store.js';
import { type BucketState, TokenBuckets } from './token-buckets.js';

export interface RateLimitSettings {
  /** Requests a minute per key on the limited routes (the contract's 429 routes and lookups). */
  perMinute: number;
  /** Writes a minute per key: every other POST, in a bucket of its own. */
  writesPerMinute: number;
  /** Every route not limited otherwise spends the request bucket. */
  allRoutes: boolean;
  clock: Clock;
  /** The buckets of every instance (PostgreSQL). @default this instance's own, in memory */
  sharedBuckets?: RateBuckets;
}

/** Most keys the limiter remembers; the least recently used are dropped first. */
const MAX_BUCKETS = 10_000;
const WRITES_GROUP = ':writes';

// The bucket is per API key; the key is hashed so it is not kept in memory in clear.
const apiKeyBucket = (apiKey: string) => `key:${createHash('sha256').update(apiKey).digest('hex')}`;

function bucketKey(request: FastifyRequest): string {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  return apiKey ? apiKeyBucket(apiKey) : `ip:${request.ip}`;
}

/** Per-key token buckets shared by the HTTP routes and anything else a key spends them on (the stream). */
export class KeyRateLimits {
  readonly buckets: RateBuckets;

  constructor(readonly settings: RateLimitSettings) {
    this.buckets = settings.sharedBuckets ?? new TokenBuckets(settings.clock, MAX_BUCKETS);
  }

  /** Spends one request of `apiKey`'s bucket, as a limited route does (for callers outside the routes: the stream). */
  takeRequest(apiKey: string): BucketState | Promise<BucketState> {
    const perMinute = this.settings.perMinute;
    return this.buckets.take(apiKeyBucket(apiKey), { capacity: perMinute, refillPerMinute: perMinute });
  }
}

/** The 429 of a spent bucket, with the wait in `Retry-After` and the body. */
export function rateLimited(max: number, what: 'requests' | 'writes', msUntilToken: number): HttpError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msUntilToken / 1000));
  return new HttpError(429, `rate limit of ${max} ${what} a minute exceeded, retry in ${retryAfterSeconds} s`, {
    retryAfterSeconds,
  });
}

/** Registers the limiter; routes opt in with {@link RATE_LIMITED} or {@link writeLimited} unless every route is limited. */
export async function registerRateLimit(app: FastifyInstance, limits: KeyRateLimits): Promise<void> {
  const { settings } = limits;
  await app.register(rateLimit, {
    global: settings.allRoutes,
    max: settings.perMinute,
    timeWindow: 60_000,
    keyGenerator: bucketKey,
    store: tokenBucketStore(limits.buckets),
    errorResponseBuilder: (request, context) => {
      const routeLimit = request.routeOptions.config.rateLimit;
      const isWrite = routeLimit !== false && routeLimit?.groupId === WRITES_GROUP;
      return rateLimited(context.max, isWrite ? 'writes' : 'requests', context.ttl);
    },
  });
}

/** Route options of the routes that spend the request bucket: those whose 429 the contract documents, and lookups. */
export const RATE_LIMITED = { config: { rateLimit: {} } } as const;

/** Route options of a write: the key's write bucket. */
export function writeLimited(writesPerMinute: number) {
  return { config: { rateLimit: { max: writesPerMinute, groupId: WRITES_GROUP } } } as const;
}
