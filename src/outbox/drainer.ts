import type { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import { isAuthFailure, isOutcomeUnknown, isRateLimited } from '../api/errors.js';
import type { CallOptions, ModerationApi } from '../api/moderation-api.js';
import {
  creationFingerprint,
  ENDPOINTS,
  type EndpointSpec,
  type ExtensionName,
  sendsIdempotencyKey,
} from '../contract/endpoints.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { Random } from '../ports/random.js';
import type { Timers } from '../ports/timers.js';
import { parseStoredCall } from './calls.js';
import { dispatchCall } from './dispatch.js';
import type { OutboxEvents } from './events.js';
import { findCreation } from './find-creation.js';
import { rateLimitWindow } from './rate.js';
import { describeFailure } from './retry-policy.js';
import type { OutboxSettings } from './settings.js';
import { announce, type Settlement, settleFailure } from './settlement.js';
import type { ClaimedRow, ClaimRequest, OutboxStore, SettleAndClaimResult } from './store.js';
import { WakeTimer } from './wake-timer.js';

const PRUNE_EVERY_MS = 60_000;
/**
 * Rows this large (a chat-log batch) start one per turn of the event loop, none in the turn that
 * claimed them: reading one back and building its request takes a good part of a millisecond.
 */
export const LARGE_ROW_CHARS = 8192;
const STORE_RETRY_MS = 1000;

export interface DrainerDeps {
  store: OutboxStore;
  client: ModerationApi;
  clock: Clock;
  timers: Timers;
  random: Random;
  ids: IdGenerator;
  logger: Logger;
  settings: OutboxSettings;
  events: EventEmitter<OutboxEvents>;
}

/**
 * Claims due rows and sends them through p-queue (concurrency and requests-per-minute caps).
 * Database work is synchronous and never spans an await: each pump is one transaction that
 * writes the outcomes settled since the last one and claims the next rows.
 */
export class Drainer {
  private readonly queue: PQueue;
  private readonly wakeTimer: WakeTimer;
  /** Claims wait for this many free slots so one transaction serves several rows. */
  private readonly claimBatch: number;
  private running = false;
  /** Rows claimed and not yet settled, whether running or waiting in the queue. */
  private active = 0;
  private settled: Settlement[] = [];
  private pausedUntil: number | null = null;
  private pumpQueued = false;
  private lastPruneAt = Number.NEGATIVE_INFINITY;
  /** Claim tokens of this drain with the number of their rows not yet settled. */
  private readonly liveTokens = new Map<string, number>();
  /** The turn the last large row waits for; each next one waits for the turn after it. */
  private lastTurn: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DrainerDeps) {
    const { concurrency, requestsPerMinute } = deps.settings;
    this.queue = new PQueue({ concurrency, ...rateLimitWindow(requestsPerMinute) });
    this.wakeTimer = new WakeTimer(deps.clock, deps.timers, () => this.pump());
    this.claimBatch = Math.max(1, Math.floor(concurrency / 4));
  }

  get pausedUntilMs(): number | null {
    return this.pausedUntil;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.deps.client.gate.events.on('gate:rate-limit-read', this.onRateLimitRead);
    this.pump();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.deps.client.gate.events.off('gate:rate-limit-read', this.onRateLimitRead);
    this.wakeTimer.clear();
    await this.queue.onIdle();
    this.pump(); // writes what the last calls settled
  }

  /** A 429 held the gate until its body was read: it may open sooner than the claim was told. */
  private readonly onRateLimitRead = () => this.wake();

  /** Pumps after the current synchronous work (the caller's transaction) and pending I/O callbacks. */
  wake(): void {
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  private pump(): void {
    const now = this.deps.clock.now();
    const request = this.claimRequest(now);
    const settlements = this.settled;
    this.settled = [];
    if (settlements.length === 0 && request === null) return;
    let result: SettleAndClaimResult;
    try {
      result = this.deps.store.settleAndClaim(settlements, now, request);
    } catch (error) {
      // E.g. the file is locked past busy_timeout or the disk is full: keep the outcomes, try again.
      this.deps.logger.error('outbox: could not write to the database; retrying', { error: describeFailure(error) });
      this.settled.unshift(...settlements);
      this.wakeTimer.at(now + STORE_RETRY_MS);
      return;
    }
    const { written, rows, reclaimed } = result;
    settlements.forEach((settlement, index) => {
      if (written[index]) this.announce(settlement);
      else this.deps.logger.debug('outbox: claim expired before the call settled', { id: settlement.row.id });
    });
    if (reclaimed > 0) this.deps.logger.info('outbox: took back rows whose lease expired', { rows: reclaimed });
    if (request === null) return;
    if (rows.length > 0) this.liveTokens.set(request.claimToken, rows.length);
    for (const row of rows) {
      this.active += 1;
      const later = row.payload.length >= LARGE_ROW_CHARS;
      this.queue
        .add(() => this.deliver(row, later))
        .catch((error: unknown) => {
          this.deps.logger.error('outbox: delivery task failed', { id: row.id, error: describeFailure(error) });
        });
    }
    if (rows.length < request.limit) {
      const next = this.deps.store.nextWakeAt(now, request.liveTokens);
      this.wakeTimer.at(Math.min(next ?? Number.POSITIVE_INFINITY, now + this.deps.settings.idlePollMs));
    }
  }

  private announce(settlement: Settlement): void {
    this.guarded(() => announce(settlement, this.deps.events, this.deps.logger));
  }

  /** A throwing event listener must not stop the drain. */
  private guarded(notify: () => void): void {
    try {
      notify();
    } catch (error) {
      this.deps.logger.error('outbox: an event listener threw', { error: describeFailure(error) });
    }
  }

  /** What to claim now, or null: stopped, paused, or too few free slots (a settling row pumps again). */
  private claimRequest(now: number): ClaimRequest | null {
    if (!this.running) return null;
    if (this.isPaused(now)) {
      this.wakeTimer.at(this.pausedUntil!);
      return null;
    }
    // Another caller of the same service met a 429 or a rejected key: nothing goes before it opens.
    const closure = this.deps.client.gate.closure(now);
    if (closure) {
      this.wakeTimer.at(closure.untilMs);
      return null;
    }
    const free = this.deps.settings.concurrency - this.active;
    if (free < (this.active === 0 ? 1 : this.claimBatch)) return null;
    this.pruneSentRows(now);
    return {
      limit: free,
      claimToken: this.deps.ids(),
      leaseMs: this.deps.settings.leaseMs,
      liveTokens: [...this.liveTokens.keys()],
    };
  }

  /** The next turn of the event loop not yet promised to a large row. */
  private nextTurn(): Promise<void> {
    const turn = this.lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.lastTurn = turn;
    return turn;
  }

  private async deliver(row: ClaimedRow, later: boolean): Promise<void> {
    try {
      if (later) await this.nextTurn();
      const settlement = await this.attempt(row);
      this.settled.push(settlement); // read the array after the await: pump swaps it
    } finally {
      this.active -= 1;
      const left = (this.liveTokens.get(row.claimToken) ?? 1) - 1;
      if (left > 0) this.liveTokens.set(row.claimToken, left);
      else this.liveTokens.delete(row.claimToken);
      this.wake();
    }
  }

  /**
   * Sends a row a waiting caller claimed itself (see `Outbox.sendNow`) and writes its settlement at
   * once; a refusal (dead) removes the row, since the caller reports it.
   */
  async deliverNow(row: ClaimedRow): Promise<Settlement> {
    const settlement = await this.attempt(row, true);
    const written = settlement.kind === 'dead' ? { ...settlement, kind: 'discard' as const } : settlement;
    const now = this.deps.clock.now();
    try {
      if (this.deps.store.settleOne(written, now)) this.announce(written);
    } catch (error) {
      // The row stays in flight; its lease runs out and the drain takes it back (outcome unknown).
      this.deps.logger.error('outbox: could not record a direct delivery', {
        id: row.id,
        error: describeFailure(error),
      });
    }
    this.wake();
    return settlement;
  }

  private async attempt(row: ClaimedRow, direct = false): Promise<Settlement> {
    const { client, clock } = this.deps;
    // Claimed before a stop or a 429 pause, started after: hand it back untouched.
    if (!direct && (!this.running || this.isPaused(clock.now()))) return { kind: 'release', row };
    const parsed = parseStoredCall(row.operation, row.payload);
    if (!parsed.ok) return { kind: 'dead', row, attempts: row.attempts, reason: parsed.problem };
    const spec: EndpointSpec = ENDPOINTS[parsed.call.operation];
    if (spec.extension && client.extensions.isMissing(spec.name as ExtensionName, clock.now())) {
      return { kind: 'skipped', row, reason: 'not offered by the service (its 404 is remembered)' };
    }
    const creation = creationFingerprint(spec, parsed.call.payload);
    if (creation && row.outcomeUnknownSince !== null) {
      const found = await this.findLostCreation(row, creation, row.outcomeUnknownSince);
      if (found) return found;
    }
    const startedAt = clock.now();
    try {
      const response = await dispatchCall(client, parsed.call, callOptionsOf(spec, row, parsed.checkedBody));
      return { kind: 'sent', row, response, createdId: createdIdOf(response) };
    } catch (error) {
      const settlement = this.onFailure(row, error);
      if (creation && settlement.kind === 'retry' && isOutcomeUnknown(error))
        settlement.outcomeUnknownSince = startedAt;
      return settlement;
    }
  }

  /**
   * An earlier attempt of this creation may have reached the service: look in `recent` first, and
   * settle the row as sent when the punishment is there. Undefined: send it (again).
   */
  private async findLostCreation(
    row: ClaimedRow,
    fingerprint: NonNullable<ReturnType<typeof creationFingerprint>>,
    sinceMs: number,
  ): Promise<Settlement | undefined> {
    const { client, clock, logger, store } = this.deps;
    let lookup: Awaited<ReturnType<typeof findCreation>>;
    try {
      lookup = await findCreation(client, { fingerprint, sinceMs, now: clock.now(), claimed: store.createdIds() });
    } catch (error) {
      // Not the row's own failure: a malformed or refused `recent` must never settle the creation.
      const failure =
        isRateLimited(error) || isAuthFailure(error)
          ? error
          : new Error(`could not look in recent for a creation whose answer was lost: ${describeFailure(error)}`);
      return this.onFailure(row, failure);
    }
    if (lookup.found) {
      const { id } = lookup.found;
      logger.info('outbox: a creation whose answer was lost was found in recent; not sent again', {
        id: row.id,
        punishmentId: id,
      });
      const response =
        row.operation === 'createPunishmentDynamic' ? { punishmentId: id, message: 'found in recent' } : undefined;
      return { kind: 'sent', row, response, createdId: id, note: `answer lost; found in recent as ${id}` };
    }
    if (!lookup.conclusive) {
      logger.warn('outbox: recent answered a full page that does not reach back to a lost creation; sending it again', {
        id: row.id,
      });
    }
    return undefined;
  }

  private onFailure(row: ClaimedRow, error: unknown): Settlement {
    const { settings, random, logger, clock } = this.deps;
    const outcome = settleFailure(row, error, { now: clock.now(), settings, random, logger });
    // The pause starts at once, before the reschedule is written: no other row may start meanwhile.
    if (outcome.pauseUntil !== undefined) {
      this.pause(outcome.pauseUntil, `${row.operation}: ${describeFailure(error)}`);
    }
    return outcome.settlement;
  }

  private pause(untilMs: number, reason: string): void {
    if (this.pausedUntil !== null && this.pausedUntil >= untilMs) return;
    this.pausedUntil = untilMs;
    this.deps.logger.info('outbox: paused', { untilMs, reason });
    this.guarded(() => this.deps.events.emit('outbox:paused', { untilMs, reason }));
    this.wakeTimer.at(untilMs);
  }

  isPaused(now: number): boolean {
    if (this.pausedUntil === null) return false;
    if (now < this.pausedUntil) return true;
    this.pausedUntil = null;
    return false;
  }

  private pruneSentRows(now: number): void {
    if (now - this.lastPruneAt < PRUNE_EVERY_MS) return;
    this.lastPruneAt = now;
    try {
      this.deps.store.pruneSent(now - this.deps.settings.keepSentMs);
    } catch (error) {
      this.deps.logger.warn('outbox: could not prune delivered rows', { error: describeFailure(error) });
    }
  }
}

/** The idempotency key for calls that create something; the stored JSON for rows sent as stored. */
function callOptionsOf(spec: EndpointSpec, row: ClaimedRow, checkedBody: string | undefined): CallOptions | undefined {
  const idempotencyKey = sendsIdempotencyKey(spec) ? row.idempotencyKey : undefined;
  if (idempotencyKey === undefined && checkedBody === undefined) return undefined;
  return {
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    ...(checkedBody === undefined ? {} : { checkedBody }),
  };
}

/** The id a creation's answer names (dynamic create), when it names one. */
function createdIdOf(response: unknown): string | undefined {
  const id = (response as { punishmentId?: unknown } | undefined)?.punishmentId;
  return typeof id === 'string' ? id : undefined;
}
