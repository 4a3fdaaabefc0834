import type { EventEmitter } from 'eventemitter3';
import type { ModerationApi } from '../api/moderation-api.js';
import type { Db } from '../db/open-db.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { Random } from '../ports/random.js';
import type { Timers } from '../ports/timers.js';
import type { OutboxCall } from './call.js';
import type { OutboxEvents } from './events.js';
import type { OutboxSettings } from './settings.js';

export type { OutboxCall, OutboxOperation } from './call.js';

export interface OutboxOptions {
  /** The plugin's database (from `openDb`); enqueue joins the caller's transaction on it. */
  db: Db;
  /** Where rows are delivered. */
  client: ModerationApi;
  /** @default systemClock */
  clock?: Clock;
  /** Wake-ups for retries and pauses. @default systemTimers */
  timers?: Timers;
  /** Jitter of the backoff. @default Math.random */
  random?: Random;
  /** Claim tokens. @default randomUUID */
  ids?: IdGenerator;
  /** @default silentLogger */
  logger?: Logger;
  /** Overrides of {@link OutboxSettings}; every one is checked when the outbox is created. */
  settings?: Partial<OutboxSettings>;
}

export interface EnqueueOptions {
  /** The same logical call is stored once: a second enqueue with this key is ignored. */
  idempotencyKey: string;
  /** Rows sharing this key (e.g. one punishment id) are delivered one after another, in order. */
  orderingKey?: string;
  /**
   * The caller built the payload through its own check of the contract (the chat log's batches,
   * too large to pass zod on the game server's loop): it is stored without the schema check. Only
   * for an operation with a stored-shape check (see `parseStoredCall`), which every read-back of
   * the row still passes. @default false
   */
  payloadChecked?: boolean;
}

export interface EnqueueResult {
  /** The row's id (the existing row's id when the key was already stored). */
  id: number;
  /** False when the idempotency key was already stored. */
  inserted: boolean;
}

/** What became of a call sent at once for a waiting caller. */
export type SendNowOutcome =
  /** The service answered 2xx (or the creation was found in `recent` after a lost answer). */
  | { kind: 'sent'; id: number; response: unknown }
  /**
   * Not delivered now: it stays in the outbox and goes later. `error` says why when a call was tried
   * or held back (the rate-limit gate's error while it is closed); undefined when earlier rows of its
   * ordering key wait before it, or the drain is paused.
   */
  | { kind: 'queued'; id: number; error?: unknown }
  /** Refused (a 4xx other than 429 and 401, or an extension the service lacks): removed, never sent. */
  | { kind: 'refused'; error: unknown };

export interface OutboxStats {
  pending: number;
  inFlight: number;
  dead: number;
  /** Delivered rows still kept (for `keepSentMs`). */
  sent: number;
  /** Age of the oldest pending or in-flight row; null when there is none. */
  oldestPendingAgeMs: number | null;
  /** Epoch ms when the earliest pending row becomes due; null when none is pending. */
  nextAttemptAt: number | null;
  /** Epoch ms until which the drain is paused after a 429; null when not paused (or unknown). */
  pausedUntil: number | null;
}

export interface DeadLetter {
  id: number;
  operation: string;
  idempotencyKey: string;
  orderingKey: string | null;
  attempts: number;
  reason: string;
  createdAt: number;
  deadAt: number | null;
}

export interface Outbox {
  /**
   * Stores one call. Synchronous: call it inside the caller's `db.transaction(...)` so the row
   * commits with the local change. Throws {@link OutboxEnqueueError} for a payload that does not
   * match the operation's schema. The drainer is woken once the caller's code has returned.
   */
  enqueue(call: OutboxCall, options: EnqueueOptions): EnqueueResult;
  /**
   * Stores one call and, when it may go now (the gate is open, the drain is not paused and no
   * earlier row of its ordering key is unfinished), sends it at once for a waiting caller, settled
   * as the drainer would settle it: the direct call and the outbox share one row, so a lost answer
   * is reconciled, never sent twice. An idempotency key already stored returns `queued` for that row.
   */
  sendNow(call: OutboxCall, options: EnqueueOptions): Promise<SendNowOutcome>;
  /**
   * Begins draining. Every claim first returns rows whose lease ran out (a crashed drain, or
   * another process) to pending, so a restart picks up where a crash left off.
   */
  start(): void;
  /** Stops claiming and waits for the calls in flight. */
  stop(): Promise<void>;
  /** Looks for due rows now (e.g. after the service came back). Does not cut a 429 pause short. */
  drainNow(): void;
  stats(): OutboxStats;
  /** Dead letters, oldest first. @default limit 100 */
  deadLetters(limit?: number): DeadLetter[];
  /** Requeues the given dead rows (all when omitted); returns how many were requeued. */
  retryDead(ids?: number[]): number;
  readonly events: EventEmitter<OutboxEvents>;
}

export type { OutboxEvents, OutboxSettings };
