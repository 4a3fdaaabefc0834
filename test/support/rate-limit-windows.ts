import { callerOf } from './contract-profile.js';
import type { ProxiedRequestEntry, ProxyLog, RateLimitWindow } from './proxy-log.js';

/**
 * What the window check forgives, and only that:
 * - `clockMs`: the end of a window. Timers and clocks round to the millisecond, and a timer may
 *   fire up to a millisecond before the wall clock says its time has come.
 * - `inFlightMs`: the start of a window, for unrelated requests on other connections. Such a
 *   request arriving this soon after the 429 was sent may have left the client before the 429
 *   reached it (calls in flight at once: the outbox sends several together; the proxy's arrival
 *   stamp lags when its event loop, shared with the test's bots, is busy). Reported apart as
 *   "crossing". A request is never forgiven when it is causally after the 429: sent on the
 *   connection that carried the 429 (HTTP/1.1: the next request waits for the answer), or a
 *   repeat of the very request that got the 429 (same method, path, query and body, or the same
 *   `Idempotency-Key`): a client only repeats a call after it has seen it fail.
 * Both are small against the 1-3 s windows: a caller that ignores a window (poller, outbox,
 * staff command) sends at a time unrelated to when the 429 was sent and is counted.
 */
export interface WindowTolerance {
  inFlightMs: number;
  clockMs: number;
}

export const DEFAULT_WINDOW_TOLERANCE: WindowTolerance = { inFlightMs: 20, clockMs: 5 };

export interface WindowViolation {
  request: ProxiedRequestEntry;
  window: RateLimitWindow;
  /** How long after the 429 was sent the request arrived. */
  afterMs: number;
}

type Placement = 'inside' | 'crossing' | 'outside';

function isRepeat(request: ProxiedRequestEntry, limited: ProxiedRequestEntry | undefined): boolean {
  if (!limited) return false;
  if (request.idempotencyKey !== undefined && request.idempotencyKey === limited.idempotencyKey) return true;
  return (
    request.method === limited.method &&
    request.path === limited.path &&
    request.query === limited.query &&
    request.body === limited.body
  );
}

function placement(
  request: ProxiedRequestEntry,
  window: RateLimitWindow,
  log: ProxyLog,
  tolerance: WindowTolerance,
): Placement {
  if (window.key !== request.key || window.requestIndex === request.index) return 'outside';
  const afterMs = request.arrivedAtMs - window.opensAtMs;
  if (afterMs <= 0 || afterMs >= window.closesAtMs - window.opensAtMs - tolerance.clockMs) return 'outside';
  if (afterMs > tolerance.inFlightMs) return 'inside';
  const limited = log.requests[window.requestIndex];
  const causallyAfter = request.connection === limited?.connection || isRepeat(request, limited);
  return causallyAfter ? 'inside' : 'crossing';
}

function placed(log: ProxyLog, tolerance: WindowTolerance, wanted: Placement): WindowViolation[] {
  const found: WindowViolation[] = [];
  for (const request of log.requests) {
    const window = log.windows.find((candidate) => placement(request, candidate, log, tolerance) === wanted);
    if (window) found.push({ request, window, afterMs: request.arrivedAtMs - window.opensAtMs });
  }
  return found;
}

/** Requests that arrived strictly inside an open 429 window of their own API key (see {@link WindowTolerance}). */
export function requestsInsideWindows(
  log: ProxyLog,
  tolerance: WindowTolerance = DEFAULT_WINDOW_TOLERANCE,
): WindowViolation[] {
  return placed(log, tolerance, 'inside');
}

/** Unrelated requests on other connections that arrived within `inFlightMs` of a 429 of their key. */
export function requestsCrossingWindows(
  log: ProxyLog,
  tolerance: WindowTolerance = DEFAULT_WINDOW_TOLERANCE,
): WindowViolation[] {
  const inside = new Set(requestsInsideWindows(log, tolerance).map((found) => found.request.index));
  return placed(log, tolerance, 'crossing').filter((found) => !inside.has(found.request.index));
}

/** `poller: GET recentPunishments` -> count, for reports and failure messages. */
export function violationsByCaller(violations: readonly WindowViolation[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { request } of violations) {
    const name = `${callerOf(request.endpoint)}: ${request.method} ${request.endpoint}`;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/** One line per violation: what arrived, how long after which 429 (of which endpoint, in which channel). */
export function describeViolations(log: ProxyLog, violations: readonly WindowViolation[]): string[] {
  return violations.map(({ request, window, afterMs }) => {
    const limited = log.requests[window.requestIndex]?.endpoint ?? 'the service';
    const wait = `${window.waitSeconds} s in ${window.channel}`;
    return `#${request.index} ${request.method} ${request.endpoint}: ${Math.round(afterMs)} ms after the 429 (${wait}) of #${window.requestIndex} ${limited}`;
  });
}
