import { callerOf } from './contract-profile.js';
import type { ProxiedRequestEntry, ProxyLog, RateLimitWindow } from './proxy-log.js';

/**
 * How the window check forgives what a client cannot avoid:
 * - `inFlightMs`: a request arriving this soon after a 429 was sent may have left the client
 *   before the 429 reached it (two calls in flight at once; the proxy shares its event loop
 *   with the test's bots, so its arrival stamp can lag by a few ms). Counted apart as
 *   "crossing", never as inside.
 * - `clockMs`: timers and clocks round to the millisecond, and a timer may fire up to a
 *   millisecond before the wall clock says its time has come.
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

/** Each request with the first window of its own key (not its own 429) for which `isIn` holds. */
function matching(log: ProxyLog, isIn: (afterMs: number, window: RateLimitWindow) => boolean): WindowViolation[] {
  const found: WindowViolation[] = [];
  for (const request of log.requests) {
    const window = log.windows.find(
      (candidate) =>
        candidate.key === request.key &&
        candidate.requestIndex !== request.index &&
        isIn(request.arrivedAtMs - candidate.opensAtMs, candidate),
    );
    if (window) found.push({ request, window, afterMs: request.arrivedAtMs - window.opensAtMs });
  }
  return found;
}

/** Requests that arrived strictly inside an open 429 window of their own API key (see {@link WindowTolerance}). */
export function requestsInsideWindows(
  log: ProxyLog,
  tolerance: WindowTolerance = DEFAULT_WINDOW_TOLERANCE,
): WindowViolation[] {
  return matching(
    log,
    (afterMs, window) =>
      afterMs > tolerance.inFlightMs && afterMs < window.closesAtMs - window.opensAtMs - tolerance.clockMs,
  );
}

/** Requests that arrived within `inFlightMs` after a 429 of their key: in flight when it was sent. */
export function requestsCrossingWindows(
  log: ProxyLog,
  tolerance: WindowTolerance = DEFAULT_WINDOW_TOLERANCE,
): WindowViolation[] {
  return matching(log, (afterMs) => afterMs > 0 && afterMs <= tolerance.inFlightMs);
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

/** One line per violation: what arrived, how long after which 429, in which channel. */
export function describeViolations(violations: readonly WindowViolation[]): string[] {
  return violations.map(({ request, window, afterMs }) => {
    const wait = `${window.waitSeconds} s ${window.channel}`;
    return `#${request.index} ${request.method} ${request.endpoint} ${Math.round(afterMs)} ms after the 429 (${wait}) of #${window.requestIndex}`;
  });
}
