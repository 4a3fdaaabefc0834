import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../ports/clock.js';
import { HttpError } from './errors.js';
import { tokenBucketStore } from './token-bucket-store.js';

export interface RateLimitSettings {
  perMinute: number;
  allRoutes: boolean;
  clock: Clock;
}

// The bucket is per API key; the key is hashed so it is not kept in memory in clear.
function bucketKey(request: FastifyRequest): string {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  return apiKey ? `key:${createHash('sha256').update(apiKey).digest('hex')}` : `ip:${request.ip}`;
}

/** Registers the limiter; routes opt in with {@link RATE_LIMITED} unless every route is limited. */
export async function registerRateLimit(app: FastifyInstance, settings: RateLimitSettings): Promise<void> {
  await app.register(rateLimit, {
    global: settings.allRoutes,
    max: settings.perMinute,
    timeWindow: 60_000,
    keyGenerator: bucketKey,
    store: tokenBucketStore(settings.clock),
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
