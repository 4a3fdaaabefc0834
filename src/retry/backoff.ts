import type { Random } from '../ports/random.js';

/** Limits of an exponential backoff: the first ceiling and the largest one. */
export interface BackoffLimits {
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The ceiling of the wait after `attempt` failures (1 after the first): it doubles from
 * `baseDelayMs` with each failure and stops at `maxDelayMs`.
 */
export function backoffCeilingMs(attempt: number, limits: BackoffLimits): number {
  return Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** Math.min(Math.max(0, attempt - 1), 40));
}

/**
 * Exponential backoff with full jitter, the one every retrying caller of the service uses
 * (outbox rows, the stream's reconnection, the migration upload, polling after failures):
 * a uniform delay in [0, ceiling).
 */
export function fullJitterDelayMs(attempt: number, limits: BackoffLimits, random: Random): number {
  return Math.floor(random() * backoffCeilingMs(attempt, limits));
}
