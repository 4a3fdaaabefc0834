import { EventEmitter } from 'eventemitter3';
import type { Clock } from '../ports/clock.js';
import type { Timers } from '../ports/timers.js';
import { type BackoffLimits, backoffCeilingMs } from '../retry/backoff.js';
import { BudgetQueue } from './budget-queue.js';
import type { EndpointName, GateReason } from './errors.js';
import { RequestBudget } from './request-budget.js';
import { UnreadRateLimits } from './unread-rate-limits.js';

/**
 * Who a call is for. `shared`: staff actions, sync, login checks, the outbox (they wait for the
 * budget). `player`: calls any player can trigger (ticket reads, lookups): they never wait, use
 * only their share of the budget, and a 429 answering one holds back only player calls.
 */
export type RequestLane = 'shared' | 'player';

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
  /** A 429 whose body was being read has been read (or its call failed): its wait is recorded, the gate may open sooner. */
  'gate:rate-limit-read': () => void;
}

/**
 * Player calls together may start this many seconds' worth of their share at once (8 with the
 * defaults' 90 a minute): players who join together and ask together are not told the service is
 * busy, and the shared budget (15 at once with the defaults) keeps most of its burst meanwhile.
 */
export const PLAYER_BURST_SECONDS = 5;

export interface RateLimitGateOptions {
  /** Calls that may start per minute, across every caller; undefined for no budget. */
  requestsPerMinute?: number;
  /**
   * Of those, how many player-triggered calls (lane `player`) may start per minute together, at
   * most {@link PLAYER_BURST_SECONDS} seconds' worth at once; undefined: no own limit.
   */
  playerRequestsPerMinute?: number;
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
  /** Closed for player calls only (a 429 answered one). */
  #playerClosure: GateClosure | undefined;
  #keyRejections = 0;
  /** 429s whose status line came and whose body is still being read, for every caller and for player calls. */
  readonly #unread = new UnreadRateLimits();
  readonly #unreadByPlayers = new UnreadRateLimits();
  readonly #budget: RequestBudget;
  readonly #queue: BudgetQueue;
  readonly #playerBudget: RequestBudget;
  readonly #defaultRetryAfterMs: number;
  readonly #keyRejectedBackoff: BackoffLimits;

  constructor(options: RateLimitGateOptions = {}) {
    this.#budget = new RequestBudget(options.requestsPerMinute);
    this.#queue = new BudgetQueue(this.#budget);
    const playerRate = options.playerRequestsPerMinute;
    this.#playerBudget = new RequestBudget(
      playerRate,
      playerRate === undefined ? 0 : Math.ceil((playerRate * PLAYER_BURST_SECONDS) / 60),
    );
    this.#defaultRetryAfterMs = options.defaultRetryAfterMs ?? 30_000;
    this.#keyRejectedBackoff = options.keyRejectedBackoff ?? { baseDelayMs: 5_000, maxDelayMs: 300_000 };
  }

  /**
   * Why no request may leave at `now`, or undefined when the gate is open. While a 429's body is
   * being read, closed until that call's deadline (or later, when another closure ends later).
   */
  closure(now: number): GateClosure | undefined {
    if (this.#closure !== undefined && now >= this.#closure.untilMs) this.#closure = undefined;
    const unread = this.#unread.latest(now);
    if (unread !== undefined && (this.#closure === undefined || this.#closure.untilMs < unread.untilMs)) {
      return { reason: 'rate-limited', endpoint: unread.endpoint, untilMs: unread.untilMs };
    }
    return this.#closure;
  }

  /**
   * A 429's status line answered `endpoint`, its wait not in the headers: the body, which may
   * give it, is still on its way. Until the returned function is called (once `rateLimited` or
   * `playerRateLimited` has the wait, or the call failed), the gate is closed for the lane's
   * callers, at most until `untilMs`, the reading call's deadline.
   */
  rateLimitArriving(endpoint: EndpointName, lane: RequestLane, untilMs: number): () => void {
    const release = (lane === 'player' ? this.#unreadByPlayers : this.#unread).add({ endpoint, untilMs });
    return () => {
      release();
      this.events.emit('gate:rate-limit-read');
    };
  }

  /**
   * Resolves once no 429 that closes the gate for every caller is being read (undefined when none
   * is now): then {@link closure} says how long it waits. Rejects with the signal's reason if it aborts first.
   */
  rateLimitsRead(now: number, signal?: AbortSignal): Promise<void> | undefined {
    return this.#unread.read(now, signal);
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
    return this.#budget.spend(now);
  }

  /**
   * Waits in line for one request of the budget. A caller whose signal aborts leaves the line
   * without spending anything (rejects with the signal's reason). Call only when the gate is open.
   */
  waitForBudget(clock: Clock, timers: Timers, signal?: AbortSignal): Promise<void> {
    return this.#queue.take(clock, timers, signal);
  }

  /**
   * Lets a player-triggered call start now, spending its share and the shared budget, or says
   * until when player calls are held back: after a 429 on one, while the players' share is
   * spent, or while other callers wait for the budget (they come first).
   */
  admitPlayerCall(endpoint: EndpointName, now: number): GateClosure | undefined {
    if (this.#playerClosure !== undefined && now >= this.#playerClosure.untilMs) this.#playerClosure = undefined;
    if (this.#playerClosure) return this.#playerClosure;
    const unread = this.#unreadByPlayers.latest(now);
    if (unread) return { reason: 'rate-limited', endpoint: unread.endpoint, untilMs: unread.untilMs };
    const waitMs = Math.max(this.#playerBudget.waitMs(now), this.#queue.waiting > 0 ? 1 : this.#budget.waitMs(now));
    if (waitMs > 0) return { reason: 'rate-limited', endpoint, untilMs: now + waitMs };
    this.#playerBudget.spend(now);
    this.#budget.spend(now);
    return undefined;
  }

  /** A 429 answered a player-triggered call: only player calls are held back, until its advertised wait. */
  playerRateLimited(endpoint: EndpointName, now: number, retryAfterMs: number | undefined): GateClosure {
    const untilMs = now + (retryAfterMs ?? this.#defaultRetryAfterMs);
    if (this.#playerClosure === undefined || this.#playerClosure.untilMs < untilMs) {
      this.#playerClosure = { reason: 'rate-limited', endpoint, untilMs };
    }
    return this.#playerClosure;
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
