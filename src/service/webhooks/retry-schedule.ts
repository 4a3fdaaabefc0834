import type { Random } from '../../ports/random.js';
import { type BackoffLimits, fullJitterDelayMs } from '../../retry/backoff.js';

/** What one attempt to deliver came to. */
export type AttemptResult =
  | { kind: 'delivered'; statusCode: number }
  /** A network error, a timeout, a 5xx or a 429: worth trying again; `retryAfterMs` is the receiver's own wait. */
  | { kind: 'retryable'; statusCode: number | null; retryAfterMs?: number }
  /**
   * Any other answer (a 4xx such as a deleted Discord webhook's 404, a redirect), or a destination the
   * service refuses to reach (no status): trying again would not help.
   */
  | { kind: 'refused'; statusCode: number | null };

export interface RetryPolicy {
  backoff: BackoffLimits;
  /** 429s with a retry time that do not spend a try, per delivery; beyond, each one spends a try. */
  maxFreeWaits: number;
  /** Longest wait the service honours from one answer, so a wild retry time cannot hold an endpoint for ever. */
  maxRetryAfterMs: number;
}

/** The state of a delivery before the attempt. */
export interface DeliveryTries {
  attempts: number;
  waits: number;
  maxAttempts: number;
}

export type NextStep = (
  | { action: 'delivered' }
  | { action: 'retry'; attempts: number; waits: number; availableAtMs: number }
  | { action: 'dead'; attempts: number }
) & {
  /** No request to this endpoint before this time: the window the receiver asked for. */
  blockedUntilMs?: number;
};

/**
 * What follows an attempt. A 429 with a retry time waits exactly that long without spending a try
 * (up to `maxFreeWaits`); other failures spend one and back off with full jitter, never sooner than
 * a retry time the receiver gave; the try that reaches `maxAttempts` makes the delivery dead.
 */
export function nextStep(
  tries: DeliveryTries,
  result: AttemptResult,
  nowMs: number,
  policy: RetryPolicy,
  random: Random,
): NextStep {
  if (result.kind === 'delivered') return { action: 'delivered' };
  if (result.kind === 'refused') return { action: 'dead', attempts: tries.attempts + 1 };
  const retryAfterMs =
    result.retryAfterMs === undefined ? undefined : Math.min(result.retryAfterMs, policy.maxRetryAfterMs);
  const blockedUntilMs = retryAfterMs === undefined ? undefined : nowMs + retryAfterMs;
  const window = blockedUntilMs === undefined ? {} : { blockedUntilMs };
  if (result.statusCode === 429 && retryAfterMs !== undefined && tries.waits < policy.maxFreeWaits) {
    return {
      action: 'retry',
      attempts: tries.attempts,
      waits: tries.waits + 1,
      availableAtMs: nowMs + retryAfterMs,
      ...window,
    };
  }
  const attempts = tries.attempts + 1;
  if (attempts >= tries.maxAttempts) return { action: 'dead', attempts, ...window };
  const delayMs = Math.max(fullJitterDelayMs(attempts, policy.backoff, random), retryAfterMs ?? 0);
  return { action: 'retry', attempts, waits: tries.waits, availableAtMs: nowMs + delayMs, ...window };
}
