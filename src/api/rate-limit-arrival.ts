import type { EndpointSpec } from '../contract/endpoints.js';
import type { Clock } from '../ports/clock.js';
import { parseRetryAfterMs } from '../retry/retry-after.js';
import { closeForRateLimit } from './pass-gate.js';
import type { RateLimitGate, RequestLane } from './rate-limit-gate.js';

/**
 * What a 429's status line tells the gate before its body is read, so that no caller is let
 * through while a body that comes late is on its way. With the wait in the headers the gate closes
 * at once; without it the gate stays closed until the body (which may give the wait) has been
 * read and the failure recorded, or, when the body never comes, for the wait of a 429 that gives none.
 */
export class RateLimitArrival {
  #release: (() => void) | undefined;

  constructor(
    private readonly spec: EndpointSpec,
    private readonly deps: { gate: RateLimitGate; clock: Clock },
    private readonly lane: RequestLane,
    /** The call's time limit: by then the body has been read or the call has failed. */
    private readonly timeoutMs: number,
  ) {}

  /** The status line and headers have arrived; the body has not been read yet. */
  readonly onHeaders = (status: number, headers: Headers): void => {
    if (status !== 429) return;
    const now = this.deps.clock.now();
    const retryAfterMs = parseRetryAfterMs(headers, undefined, now);
    if (retryAfterMs !== undefined) closeForRateLimit(this.deps.gate, this.spec.name, this.lane, now, retryAfterMs);
    else this.#release = this.deps.gate.rateLimitArriving(this.spec.name, this.lane, now + this.timeoutMs);
  };

  /** The call failed after the status line (the body never came whole): closed as for a 429 without a wait. */
  bodyLost(): void {
    if (this.#release === undefined) return;
    closeForRateLimit(this.deps.gate, this.spec.name, this.lane, this.deps.clock.now(), undefined);
    this.done();
  }

  /** The answer has been read and what it teaches recorded: lifts the hold of its arrival. */
  done(): void {
    this.#release?.();
    this.#release = undefined;
  }
}
