import { addressWords, rangeOf } from '../../ip/ip-range.js';
import type { Clock } from '../../ports/clock.js';
import { HttpError } from './errors.js';
import { TokenBuckets } from './token-buckets.js';

/** Most client addresses remembered; the least recently seen are forgotten first. */
const MAX_ADDRESSES = 10_000;
/** One IPv6 host usually holds a whole /64, so its addresses share one allowance. */
const IPV6_CLIENT_PREFIX = 64;

/** Who a failure is counted against: the address, an IPv6 address by its /64. */
export function clientOf(address: string): string {
  const parsed = addressWords(address);
  if (!parsed) return address;
  return parsed.version === 4 ? rangeOf(4, parsed.words, 32).text : rangeOf(6, parsed.words, IPV6_CLIENT_PREFIX).text;
}

/**
 * Wrong API keys and admin tokens, counted per client address: a burst of `failuresPerMinute`
 * wrong secrets, then as many a minute. Once an address has none left, every request from it is
 * refused before its secret is looked at, so guessing gains nothing, while addresses that send
 * good secrets are never held back.
 */
export class AuthFailureThrottle {
  private readonly buckets: TokenBuckets;
  private readonly size;

  constructor(clock: Clock, failuresPerMinute: number) {
    this.buckets = new TokenBuckets(clock, MAX_ADDRESSES);
    this.size = { capacity: failuresPerMinute, refillPerMinute: failuresPerMinute };
  }

  /** Addresses currently remembered (bounded). */
  get trackedAddresses(): number {
    return this.buckets.size;
  }

  /** Throws the 429 when `address` used up its wrong secrets. */
  refuseIfExhausted(address: string): void {
    const state = this.buckets.peek(clientOf(address), this.size);
    if (state.isAllowed) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(state.msUntilToken / 1000));
    throw new HttpError(
      429,
      `too many wrong API keys or admin tokens from this address (at most ${this.size.capacity} a minute), retry in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  }

  /** Counts one wrong secret from `address`. */
  recordFailure(address: string): void {
    this.buckets.take(clientOf(address), this.size);
  }
}
