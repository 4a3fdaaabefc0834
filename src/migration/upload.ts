import { isRateLimited, isTransient } from '../api/errors.js';
import type { ModerationApi } from '../api/moderation-api.js';
import type { MigrationUploadResponse } from '../contract/schemas.js';
import type { Random } from '../ports/random.js';
import type { Timers } from '../ports/timers.js';
import { fullJitterDelayMs } from '../retry/backoff.js';
import { MigrationError } from './errors.js';
import { explainUploadError } from './explain.js';

/** Backoff of the upload (full jitter, the shared formula), and the wait after a 429 that gave none. */
export const UPLOAD_BACKOFF = { baseDelayMs: 1_000, maxDelayMs: 60_000, rateLimitedDefaultMs: 30_000 } as const;

export interface UploadRetryOptions {
  client: ModerationApi;
  filePath: string;
  fileSize: number;
  timers: Timers;
  random: Random;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Time limit of one attempt. */
  timeoutMs: number;
  onAttempt?: (attempt: number) => void;
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
}

function sleep(timers: Timers, delayMs: number): Promise<void> {
  return new Promise((resolve) => timers.setTimeout(resolve, delayMs));
}

/** How long to wait before attempt `attempt + 1`: the advertised time for a 429 (or the gate's), else backoff. */
export function retryDelayMs(error: unknown, attempt: number, random: Random): number {
  if (isRateLimited(error)) return error.retryAfterMs ?? UPLOAD_BACKOFF.rateLimitedDefaultMs;
  return fullJitterDelayMs(attempt, UPLOAD_BACKOFF, random);
}

/**
 * Uploads the file, retrying 429, 5xx, timeouts and network failures up to `maxAttempts`.
 * Any other failure (400, 401, 413...) stops at once. Throws a {@link MigrationError} whose
 * message explains the failure in a sentence.
 */
export async function uploadWithRetry(options: UploadRetryOptions): Promise<MigrationUploadResponse> {
  for (let attempt = 1; ; attempt++) {
    options.onAttempt?.(attempt);
    try {
      // The file is re-opened and streamed from disk on every attempt.
      return await options.client.uploadMigration({ filePath: options.filePath }, { timeoutMs: options.timeoutMs });
    } catch (error) {
      const explanation = explainUploadError(error, options.fileSize);
      if (!isTransient(error) || attempt >= options.maxAttempts) {
        const prefix = isTransient(error) ? `Gave up after ${attempt} upload attempts. ` : '';
        throw new MigrationError('upload', `${prefix}${explanation}`, { cause: error });
      }
      const delayMs = retryDelayMs(error, attempt, options.random);
      options.onRetry?.(attempt, delayMs, explanation);
      await sleep(options.timers, delayMs);
    }
  }
}
