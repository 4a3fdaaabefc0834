import { EventEmitter } from 'eventemitter3';
import { type BackoffLimits, backoffCeilingMs } from './backoff.js';
import type { EndpointName, GateReason } from './errors.js';

/** Why the gate is closed, since when, and until when. */
export interface GateClosure {
  reason: GateReason;
  /** Epoch ms before which no request may leave. */
  untilMs: number;
  /** The call whose answer closed it. */
  endpoint: EndpointName;
}

export interface GateEvents {
  /** The gate closed, or its closure was pushed further out. */
  'gate:closed': (closure: GateClosure) => void;
  /** The service rejected the key (a 401) after accepting it, or on the first call. Once per rejection. */
  'gate:key-rejected': (event: { endpoint: EndpointName }) => void;
  /** A rejected key works again. */
  'gate:key-accepted': () => void;
}

export interface RateLimitGateOptions {
  /** Calls that may start per minute, across every caller; undefined for no budget. */
  requestsPerMinute?: number;
  /** Wait after a 429 that did not say how long. @default 30000 */
  defaultRetryAfterMs?: number;
  /** How long the gate stays closed after a 401, doubling while the key stays rejected. @default 5 s to 5 min */
  keyRejectedBackoff?: BackoffLimits;
}

/**
 * The one door every request to a service goes through, shared by every caller of one service
 * and key (poller, stream, login check, staff commands, outbox, migration upload). A 429 seen by
 * any caller closes it for all until the advertised time; a 401 closes it with a growing wait
 * until the key works again. It also spends a requests-per-minute budget across all callers.
 */
export class RateLimitGate {
  readonly events = new EventEmitter<GateEvents>();
  #closure: GateClosure | undefined;
  #keyRejections = 0;
  /** Theoretical arrival time of the next request (GCRA): the budget's whole state. */
  #nextSlotAt = Number.NEGATIVE_INFINITY;
  readonly #slotMs: number;
  readonly #burstMs: number;
  readonly #defaultRetryAfterMs: number;
  readonly #keyRejectedBackoff: BackoffLimits;

  constructor(options: RateLimitGateOptions = {}) {
    const perMinute = options.requestsPerMinute;
    this.#slotMs = perMinute === undefined ? 0 : 60_000 / perMinute;
    // A second's worth may go at once, as the outbox's window always allowed.
    this.#burstMs = perMinute === undefined ? 0 : this.#slotMs * Math.max(0, Math.ceil(perMinute / 60) - 1);
    this.#defaultRetryAfterMs = options.defaultRetryAfterMs ?? 30_000;
    this.#keyRejectedBackoff = options.keyRejectedBackoff ?? { baseDelayMs: 5_000, maxDelayMs: 300_000 };
  }

  /** Why no request may leave at `now`, or undefined when the gate is open. */
  closure(now: number): GateClosure | undefined {
    if (this.#closure !== undefined && now >= this.#closure.untilMs) this.#closure = undefined;
    return this.#closure;
  }

  /** Whether the service rejected the key and has not accepted it since. */
  get isKeyRejected(): boolean {
    return this.#keyRejections > 0;
  }

  /**
   * Reserves one request of the budget; resolves to how long to wait before sending it (0 most
   * of the time). Call only when the gate is open.
   */
  reserve(now: number): number {
    if (this.#slotMs === 0) return 0;
    const slotAt = Math.max(this.#nextSlotAt, now);
    this.#nextSlotAt = slotAt + this.#slotMs;
    return Math.ceil(Math.max(0, slotAt - now - this.#burstMs));
  }

  /** A 429 answered `endpoint`: closed until its advertised wait (30 s when it gave none) has passed. */
  rateLimited(endpoint: EndpointName, now: number, retryAfterMs: number | undefined): GateClosure {
    return this.#close({
      reason: 'rate-limited',
      endpoint,
      untilMs: now + (retryAfterMs ?? this.#defaultRetryAfterMs),
    });
  }

  /** A 401 answered `endpoint`: closed for a wait that doubles with each rejection in a row. */
  keyRejected(endpoint: EndpointName, now: number): GateClosure {
    this.#keyRejections += 1;
    if (this.#keyRejections === 1) this.events.emit('gate:key-rejected', { endpoint });
    const waitMs = backoffCeilingMs(this.#keyRejections, this.#keyRejectedBackoff);
    return this.#close({ reason: 'key-rejected', endpoint, untilMs: now + waitMs });
  }

  /** An answer that proves the key was accepted (a 2xx, or a 4xx other than 401 and 429). */
  keyAccepted(): void {
    if (this.#keyRejections === 0) return;
    this.#keyRejections = 0;
    if (this.#closure?.reason === 'key-rejected') this.#closure = undefined;
    this.events.emit('gate:key-accepted');
  }

  #close(next: GateClosure): GateClosure {
    if (this.#closure !== undefined && this.#closure.untilMs >= next.untilMs) return this.#closure;
    this.#closure = next;
    this.events.emit('gate:closed', next);
    return next;
  }
}
