import type { Random } from '../ports/random.js';

/**
 * Exponential backoff with full jitter: a uniform delay in [0, ceiling), where the ceiling
 * doubles from `baseDelayMs` with each spent attempt and stops at `maxDelayMs`.
 * `attempt` is 1 after the first failure.
 */
export function fullJitterDelayMs(
  attempt: number,
  limits: { baseDelayMs: number; maxDelayMs: number },
  random: Random,
): number {
  const ceiling = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
