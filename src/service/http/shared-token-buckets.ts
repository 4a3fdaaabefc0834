import type { Clock } from '../../ports/clock.js';
import type { RateBuckets } from './rate-buckets.js';
import type { BucketSize, BucketState } from './token-buckets.js';

/** A reservation's answer: tokens granted to this instance and what the shared bucket holds after it. */
export interface Reservation {
  granted: number;
  tokensLeft: number;
}

/** The shared buckets (a row per key), each reservation one atomic statement. */
export interface BucketReservations {
  /**
   * Gives back `returned` unused tokens and takes up to `wanted` whole tokens from the key's bucket
   * (created full), refilled continuously at `refillPerMs` up to `capacity`, as of `nowMs`.
   */
  reserve(
    key: string,
    bucket: { capacity: number; refillPerMs: number },
    wanted: number,
    returned: number,
    nowMs: number,
  ): Promise<Reservation>;
  /** Deletes buckets untouched since `beforeMs` (full again by then); returns how many. */
  forgetIdle(beforeMs: number): Promise<number>;
}

export interface SharedBucketSettings {
  /** Part of a bucket's capacity one reservation takes at most (at least one token). @default 0.05 */
  chunkFraction: number;
  /** Tokens held longer than this go back to the shared bucket at the next reservation. @default 1000 */
  holdMs: number;
  /** Keys remembered; the least recently used is forgotten first (its held tokens are lost). */
  maxKeys: number;
  /** After this many reservations, shared buckets idle long enough to be full again are deleted. @default 1000 */
  reservationsPerCleanup: number;
}

interface Allowance {
  tokens: number;
  reservedAtMs: number;
  /** The shared bucket was empty: refuse here, without asking, until then. */
  emptyUntilMs: number;
  /** What the shared bucket held after the last reservation. */
  sharedLeft: number;
  pending: Promise<void> | undefined;
}

/**
 * Token buckets shared by every instance: a request spends a token this instance holds; when it
 * holds none, it reserves a small chunk from the shared bucket (one round trip, shared by the
 * requests of that key arriving meanwhile). Several instances therefore allow together at most the
 * bucket's rate, plus what each holds unspent (one chunk, returned after `holdMs`).
 */
export class SharedTokenBuckets implements RateBuckets {
  private readonly allowances = new Map<string, Allowance>();
  private reservationsSinceCleanup = 0;

  constructor(
    private readonly reservations: BucketReservations,
    private readonly clock: Clock,
    private readonly settings: SharedBucketSettings,
  ) {}

  take(key: string, size: BucketSize): BucketState | Promise<BucketState> {
    const allowance = this.allowanceOf(key);
    return this.spendHeld(allowance, size) ?? this.takeReserved(key, allowance, size);
  }

  private async takeReserved(key: string, allowance: Allowance, size: BucketSize): Promise<BucketState> {
    // Requests that waited on one reservation may find its chunk spent by the others: they reserve again.
    for (let round = 0; round < MAX_RESERVATIONS_PER_TAKE; round += 1) {
      await this.reserve(key, allowance, size);
      const spent = this.spendHeld(allowance, size);
      if (spent) return spent;
    }
    return this.refusal(allowance, size);
  }

  /** Answers from what this instance holds, or undefined when it must ask the shared bucket. */
  private spendHeld(allowance: Allowance, size: BucketSize): BucketState | undefined {
    const nowMs = this.clock.now();
    if (allowance.tokens >= 1 && nowMs - allowance.reservedAtMs < this.settings.holdMs) {
      allowance.tokens -= 1;
      return {
        isAllowed: true,
        tokensLeft: Math.floor(allowance.tokens + allowance.sharedLeft),
        msUntilToken: msPerToken(size),
      };
    }
    if (nowMs < allowance.emptyUntilMs) return this.refusal(allowance, size);
    return undefined;
  }

  private refusal(allowance: Allowance, size: BucketSize): BucketState {
    const waitMs = allowance.emptyUntilMs - this.clock.now();
    return { isAllowed: false, tokensLeft: 0, msUntilToken: waitMs > 0 ? waitMs : msPerToken(size) };
  }

  private reserve(key: string, allowance: Allowance, size: BucketSize): Promise<void> {
    allowance.pending ??= (async () => {
      const nowMs = this.clock.now();
      const refillPerMs = size.refillPerMinute / 60_000;
      const wanted = Math.max(1, Math.floor(size.capacity * this.settings.chunkFraction));
      const returned = Math.floor(allowance.tokens);
      allowance.tokens = 0;
      const reservation = await this.reservations.reserve(
        key,
        { capacity: size.capacity, refillPerMs },
        wanted,
        returned,
        nowMs,
      );
      this.cleanUpNow(size);
      allowance.tokens = reservation.granted;
      allowance.reservedAtMs = nowMs;
      allowance.sharedLeft = reservation.tokensLeft;
      allowance.emptyUntilMs =
        reservation.granted > 0 ? 0 : nowMs + Math.max(1, Math.ceil((1 - reservation.tokensLeft) / refillPerMs));
    })().finally(() => {
      allowance.pending = undefined;
    });
    return allowance.pending;
  }

  private cleanUpNow(size: BucketSize): void {
    this.reservationsSinceCleanup += 1;
    if (this.reservationsSinceCleanup < this.settings.reservationsPerCleanup) return;
    this.reservationsSinceCleanup = 0;
    // Twice the time an empty bucket takes to fill: every bucket idle since is full.
    const fullAfterMs = 2 * Math.ceil((size.capacity * 60_000) / size.refillPerMinute);
    this.reservations.forgetIdle(this.clock.now() - fullAfterMs).catch(() => {});
  }

  private allowanceOf(key: string): Allowance {
    let allowance = this.allowances.get(key);
    if (allowance) {
      this.allowances.delete(key);
    } else {
      allowance = { tokens: 0, reservedAtMs: 0, emptyUntilMs: 0, sharedLeft: 0, pending: undefined };
    }
    this.allowances.set(key, allowance);
    if (this.allowances.size > this.settings.maxKeys) this.allowances.delete(this.allowances.keys().next().value!);
    return allowance;
  }
}

const MAX_RESERVATIONS_PER_TAKE = 3;

const msPerToken = (size: BucketSize) => Math.max(1, Math.ceil(60_000 / size.refillPerMinute));
