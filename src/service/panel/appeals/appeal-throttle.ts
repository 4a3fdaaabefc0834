import type { Clock } from '../../../ports/clock.js';
import { clientOf } from '../../http/auth-throttle.js';
import { TokenBuckets } from '../../http/token-buckets.js';

/** Most client addresses remembered; the least recently seen are forgotten first. */
const MAX_ADDRESSES = 10_000;

/**
 * Appeal submissions per client address (an IPv6 client by its /64): `perHour` at once, then as
 * many an hour. Every submission counts, refused ones too, so punishment ids cannot be guessed.
 */
export class AppealThrottle {
  private readonly buckets: TokenBuckets;
  private readonly size;

  constructor(clock: Clock, perHour: number) {
    this.buckets = new TokenBuckets(clock, MAX_ADDRESSES);
    this.size = { capacity: perHour, refillPerMinute: perHour / 60 };
  }

  /** Spends one submission of `address`; the wait in seconds when it has none left. */
  take(address: string): { isAllowed: true } | { isAllowed: false; retryAfterSeconds: number } {
    const state = this.buckets.take(clientOf(address), this.size);
    if (state.isAllowed) return { isAllowed: true };
    return { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil(state.msUntilToken / 1000)) };
  }
}
