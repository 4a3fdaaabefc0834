import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import { type TokenBuckets, tokenBucketStore } from './token-bucket-store.js';

export interface RateLimitSettings {
  perMinute: number;
  allRoutes: boolean;
  /** Shared with the stream's handshakes. */
  buckets: TokenBuckets;
}

/** Milliseconds over which `perMinute` tokens refill. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

// The bucket is per API key; the key is hashed so it is not kept in memory in clear.
function bucketKey(request: FastifyRequest): string {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  return apiKey ? apiKeyBucket(apiKey) : `ip:${request.ip}`;
}

/** The bucket of an API key. */
export function apiKeyBucket(apiKey: string): string {
  return `key:${createHash('sha256').update(apiKey).digest('hex')}`;
}

/** Registers the limiter; routes opt in with {@link RATE_LIMITED} unless every route is limited. */
export async function registerRateLimit(app: FastifyInstance, settings: RateLimitSettings): Promise<void> {
  await app.register(rateLimit, {
    global: settings.allRoutes,
    max: settings.perMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    keyGenerator: bucketKey,
    store: tokenBucketStore(settings.buckets),
    errorResponseBuilder: (_request, context) => {
      const retryAfterSeconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new HttpError(
        429,
        `rate limit of ${context.max} requests a minute exceeded, retry in ${retryAfterSeconds} s`,
        {
          retryAfterSeconds,
        },
      );
    },
  });
}

/** Route options of the routes whose 429 the contract documents. */
export const RATE_LIMITED = { config: { rateLimit: {} } } as const;
