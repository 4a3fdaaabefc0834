import { type EndpointSpec, type ExtensionName, notFoundMeansNotOffered } from '../contract/endpoints.js';
import type { Clock } from '../ports/clock.js';
import type { Timers } from '../ports/timers.js';
import { ApiError, type EndpointName, isApiError } from './errors.js';
import type { ExtensionSupport } from './extension-support.js';
import type { GateClosure, RateLimitGate, RequestLane } from './rate-limit-gate.js';

export interface GateDeps {
  gate: RateLimitGate;
  clock: Clock;
  timers: Timers;
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/** The error of a request the gate held back: it never left, and `retryAfterMs` says when it may. */
export function gatedError(endpoint: EndpointName, closure: GateClosure, now: number): ApiError {
  const retryAfterMs = Math.max(0, closure.untilMs - now);
  const why =
    closure.reason === 'rate-limited'
      ? `the service asked to wait (429 on ${closure.endpoint})`
      : `the service rejected the API key (401 on ${closure.endpoint})`;
  return new ApiError({
    kind: 'rate_limited',
    endpoint,
    gated: closure.reason,
    retryAfterMs,
    message: `${endpoint}: not sent: ${why}; the gate opens in ${seconds(retryAfterMs)}`,
  });
}

/** A player-triggered call held back: it never left, and `retryAfterMs` says when player calls may go again. */
function playerHeldError(endpoint: EndpointName, closure: GateClosure, now: number): ApiError {
  const retryAfterMs = Math.max(0, closure.untilMs - now);
  return new ApiError({
    kind: 'rate_limited',
    endpoint,
    gated: 'rate-limited',
    retryAfterMs,
    message: `${endpoint}: not sent: player-triggered calls are held back (their share of the request budget is spent, or the service asked to wait); they may go again in ${seconds(retryAfterMs)}`,
  });
}

/** Waits until no 429 that closes the gate for every caller is still being read (see `rateLimitArriving`). */
async function untilRateLimitsRead(endpoint: EndpointName, reading: Promise<void>): Promise<void> {
  try {
    await reading;
  } catch (error) {
    throw new ApiError({
      kind: 'network',
      endpoint,
      message: `${endpoint}: aborted by the caller while a 429 was being read, never sent`,
      cause: error,
    });
  }
}

/**
 * Lets one request through the gate: throws the gated error while it is closed. A shared call
 * first waits for any 429 still being read (its wait may be in the body), then waits in line for
 * the request budget (leaving the line, unsent, if `signal` aborts) and checks again (another
 * caller may have met a 429 meanwhile); a player call goes now or not at all.
 */
export async function passGate(
  endpoint: EndpointName,
  deps: GateDeps,
  lane: RequestLane = 'shared',
  signal?: AbortSignal,
): Promise<void> {
  const reading = lane === 'shared' ? deps.gate.rateLimitsRead(deps.clock.now(), signal) : undefined;
  if (reading) await untilRateLimitsRead(endpoint, reading);
  const closure = deps.gate.closure(deps.clock.now());
  if (closure) throw gatedError(endpoint, closure, deps.clock.now());
  if (lane === 'player') {
    const held = deps.gate.admitPlayerCall(endpoint, deps.clock.now());
    if (held) throw playerHeldError(endpoint, held, deps.clock.now());
    return;
  }
  if (signal?.aborted) {
    throw new ApiError({ kind: 'network', endpoint, message: `${endpoint}: aborted by the caller before sending` });
  }
  try {
    await deps.gate.waitForBudget(deps.clock, deps.timers, signal);
  } catch (error) {
    throw new ApiError({
      kind: 'network',
      endpoint,
      message: `${endpoint}: aborted by the caller while waiting for the request budget, never sent`,
      cause: error,
    });
  }
  const stillReading = deps.gate.rateLimitsRead(deps.clock.now(), signal);
  if (stillReading) await untilRateLimitsRead(endpoint, stillReading);
  const now = deps.clock.now();
  const later = deps.gate.closure(now);
  if (later) throw gatedError(endpoint, later, now);
}

/** A 429 answered `endpoint`: a player call's holds back player calls only, any other closes the gate for all. */
export function closeForRateLimit(
  gate: RateLimitGate,
  endpoint: EndpointName,
  lane: RequestLane,
  now: number,
  retryAfterMs: number | undefined,
): void {
  // A player's flood must not hold back staff, sync and login checks.
  if (lane === 'player') gate.playerRateLimited(endpoint, now, retryAfterMs);
  else gate.rateLimited(endpoint, now, retryAfterMs);
}

/** What a failed answer teaches the gate and the extension record; returns the error to throw. */
export function recordFailure(
  spec: EndpointSpec,
  error: unknown,
  now: number,
  deps: { gate: RateLimitGate; extensions: ExtensionSupport },
  lane: RequestLane = 'shared',
): unknown {
  if (!isApiError(error)) return error;
  if (error.kind === 'rate_limited') {
    closeForRateLimit(deps.gate, spec.name, lane, now, error.retryAfterMs);
    return error;
  }
  if (error.kind === 'invalid_response') {
    recordAnswer(spec, deps);
    return error;
  }
  if (error.kind !== 'http' || error.status === undefined || error.status >= 500) return error;
  if (error.status === 401) {
    const closure = deps.gate.keyRejected(spec.name, now);
    return new ApiError({
      kind: error.kind,
      endpoint: error.endpoint,
      message: error.message,
      status: error.status,
      serviceMessage: error.serviceMessage,
      excerpt: error.excerpt,
      retryAfterMs: closure.untilMs - now,
    });
  }
  deps.gate.keyAccepted();
  if (error.status === 404 && notFoundMeansNotOffered(spec))
    deps.extensions.markMissing(spec.name as ExtensionName, now);
  return error;
}

/** A 2xx (well-formed or not): the key works and, for an extension, the service offers it. */
export function recordAnswer(spec: EndpointSpec, deps: { gate: RateLimitGate; extensions: ExtensionSupport }): void {
  deps.gate.keyAccepted();
  if (spec.extension) deps.extensions.markOffered(spec.name as ExtensionName);
}
