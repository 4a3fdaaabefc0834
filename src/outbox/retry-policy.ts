import { type ApiError, isApiError, isAuthFailure, isRateLimited, isTransient } from '../api/errors.js';
import { ENDPOINTS, notFoundMeansNotOffered } from '../contract/endpoints.js';
import { errorMessage } from '../errors/error-message.js';
import type { Random } from '../ports/random.js';
import { fullJitterDelayMs } from '../retry/backoff.js';
import type { OutboxSettings } from './settings.js';

/** What a failed delivery turns into. */
export type Decision =
  | { action: 'sent'; rule: string }
  | { action: 'skipped'; rule: string }
  | { action: 'retry'; rule: string; delayMs: number; attempts: number; pausesDrain: boolean }
  | { action: 'dead'; rule: string; reason: string };

export interface FailureContext {
  error: unknown;
  /** Attempts already spent before this failure. */
  attempts: number;
  /** Time since the row was enqueued (or last requeued). */
  ageMs: number;
  settings: OutboxSettings;
  random: Random;
}

/** One row of the policy: the first rule whose `when` matches decides. */
export interface RetryRule {
  name: string;
  when: (error: unknown) => boolean;
  action: 'retry' | 'dead' | 'sent' | 'skipped';
  /** Whether this failure counts against `maxAttempts`. */
  spendsAttempt?: boolean;
  /** Whether every other row waits too (a 429 or a rejected key concerns the key, not the row). */
  pausesDrain?: boolean;
  /** Retry delay; `attempt` counts the attempts spent including this one. */
  delayMs?: (context: FailureContext & { attempt: number }) => number;
}

const backoff: RetryRule['delayMs'] = ({ attempt, settings, random }) => fullJitterDelayMs(attempt, settings, random);
const advertisedWait: RetryRule['delayMs'] = ({ error, settings }) =>
  (error as ApiError).retryAfterMs ?? settings.defaultRetryAfterMs;

/** The backoff, but never shorter than the wait the service advertised (itself capped at `maxDelayMs`). */
const backoffAtLeastAdvertised: RetryRule['delayMs'] = (context) =>
  Math.max(backoff(context), Math.min((context.error as ApiError).retryAfterMs ?? 0, context.settings.maxDelayMs));

/** A 503 that says when to come back: the service is unavailable as a whole, not this one call. */
function isUnavailableWithWait(error: unknown): boolean {
  return isApiError(error) && error.kind === 'http' && error.status === 503 && error.retryAfterMs !== undefined;
}

/** A 404 from a route beyond the contract: the service does not offer it. */
function isMissingExtension(error: unknown): boolean {
  if (!isApiError(error) || error.kind !== 'http' || error.status !== 404 || error.endpoint === 'stream') return false;
  return notFoundMeansNotOffered(ENDPOINTS[error.endpoint]);
}

export const RETRY_RULES: readonly RetryRule[] = [
  // Also a request the rate-limit gate held back: it never left, so nothing is spent.
  {
    name: 'rate-limited',
    when: isRateLimited,
    action: 'retry',
    spendsAttempt: false,
    pausesDrain: true,
    delayMs: advertisedWait,
  },
  // The key is wrong for every row: wait for it to be fixed (the gate asks again with a growing wait), lose nothing.
  {
    name: 'key-rejected',
    when: isAuthFailure,
    action: 'retry',
    spendsAttempt: false,
    pausesDrain: true,
    delayMs: advertisedWait,
  },
  { name: 'extension-missing', when: isMissingExtension, action: 'skipped' },
  // The service says it is down for every call (a 503 with Retry-After, e.g. its database is
  // unreachable): no row goes before then, and this one backs off at least that long.
  {
    name: 'unavailable',
    when: isUnavailableWithWait,
    action: 'retry',
    spendsAttempt: true,
    pausesDrain: true,
    delayMs: backoffAtLeastAdvertised,
  },
  { name: 'transient', when: isTransient, action: 'retry', spendsAttempt: true, delayMs: backoff },
  // A 2xx whose body we do not understand was still accepted: sending it again changes nothing.
  {
    name: 'accepted-unexpected-body',
    when: (error) => isApiError(error) && error.kind === 'invalid_response',
    action: 'sent',
  },
  // Any other 4xx, and a request our client refused to send: the same call fails the same way again.
  { name: 'rejected', when: isApiError, action: 'dead' },
  // Not an ApiError: a fault of ours or the runtime's; at-least-once says try again.
  { name: 'unexpected', when: () => true, action: 'retry', spendsAttempt: true, delayMs: backoff },
];

/** One line about an error for a dead letter or a log; built from status and messages, never headers. */
export function describeFailure(error: unknown): string {
  if (isApiError(error)) {
    const head = error.status === undefined ? error.kind : `${error.status}`;
    return `${head} ${error.serviceMessage ?? error.message}`.slice(0, 500);
  }
  return errorMessage(error).slice(0, 500);
}

export function decide(context: FailureContext, rules: readonly RetryRule[] = RETRY_RULES): Decision {
  const rule = rules.find((candidate) => candidate.when(context.error)) ?? RETRY_RULES[RETRY_RULES.length - 1]!;
  const detail = describeFailure(context.error);
  if (rule.action === 'sent' || rule.action === 'skipped') return { action: rule.action, rule: rule.name };
  if (rule.action === 'dead') return { action: 'dead', rule: rule.name, reason: `rejected by the service: ${detail}` };
  const attempts = context.attempts + (rule.spendsAttempt ? 1 : 0);
  const { maxAttempts, maxAgeMs } = context.settings;
  if (rule.spendsAttempt && maxAttempts !== null && attempts >= maxAttempts) {
    return { action: 'dead', rule: rule.name, reason: `gave up after ${attempts} attempts: ${detail}` };
  }
  if (context.ageMs >= maxAgeMs) {
    const hours = Math.round(context.ageMs / 3_600_000);
    return { action: 'dead', rule: rule.name, reason: `gave up after ${hours} h of retries: ${detail}` };
  }
  const delayMs = Math.max(0, rule.delayMs?.({ ...context, attempt: attempts }) ?? 0);
  return { action: 'retry', rule: rule.name, delayMs, attempts, pausesDrain: rule.pausesDrain === true };
}
