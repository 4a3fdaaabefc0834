import type { Clock } from '../../ports/clock.js';
import { clientOf } from '../http/auth-throttle.js';
import { type BucketSize, TokenBuckets } from '../http/token-buckets.js';

/** Client addresses, pairs, devices or usernames remembered per kind; the least recently seen are forgotten first. */
const MAX_KEYS = 10_000;

export interface LoginThrottleSettings {
  /** Wrong passwords or codes one client address may send: a burst of this many, then this many a minute. */
  perAddressPerMinute: number;
  /**
   * Wrong passwords or codes for one username from one client address; from one device that
   * logged in to it before; and from all devices that never did, together. A burst of this many,
   * then this many a minute, each.
   */
  perAccountPerMinute: number;
}

/** One login try: where it came from, the username it names, and its device if that device logged in to it before. */
export interface LoginAttempt {
  address: string;
  username: string;
  /** The hash of a valid device cookie of this account; undefined for a device it does not know. */
  trustedDevice: string | undefined;
}

/**
 * Wrong passwords and two-factor codes, counted so that strangers cannot lock a staff member out
 * (OWASP's device cookies): by client address, by username and address, and by username only
 * for devices that never logged in to that account. A device that did (its device cookie) is
 * counted on its own instead, so a stranger's wrong passwords from anywhere leave its owner free.
 */
export class LoginThrottle {
  private readonly byAddress: TokenBuckets;
  private readonly byAccountAndAddress: TokenBuckets;
  private readonly byDevice: TokenBuckets;
  private readonly byUntrustedAccount: TokenBuckets;
  private readonly addressSize: BucketSize;
  private readonly accountSize: BucketSize;

  constructor(clock: Clock, settings: LoginThrottleSettings) {
    this.byAddress = new TokenBuckets(clock, MAX_KEYS);
    this.byAccountAndAddress = new TokenBuckets(clock, MAX_KEYS);
    this.byDevice = new TokenBuckets(clock, MAX_KEYS);
    this.byUntrustedAccount = new TokenBuckets(clock, MAX_KEYS);
    this.addressSize = { capacity: settings.perAddressPerMinute, refillPerMinute: settings.perAddressPerMinute };
    this.accountSize = { capacity: settings.perAccountPerMinute, refillPerMinute: settings.perAccountPerMinute };
  }

  private bucketsOf(attempt: LoginAttempt): Array<[TokenBuckets, string, BucketSize]> {
    const client = clientOf(attempt.address);
    const username = attempt.username.toLowerCase();
    return [
      [this.byAddress, client, this.addressSize],
      [this.byAccountAndAddress, `${username}\n${client}`, this.accountSize],
      attempt.trustedDevice === undefined
        ? [this.byUntrustedAccount, username, this.accountSize]
        : [this.byDevice, attempt.trustedDevice, this.accountSize],
    ];
  }

  /** Seconds until the attempt may be made, when one of its allowances is used up; else undefined. */
  secondsToWait(attempt: LoginAttempt): number | undefined {
    let waitMs = 0;
    for (const [buckets, key, size] of this.bucketsOf(attempt)) {
      const state = buckets.peek(key, size);
      if (!state.isAllowed) waitMs = Math.max(waitMs, state.msUntilToken);
    }
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : undefined;
  }

  /** Counts a wrong password or code against each of the attempt's allowances. */
  recordFailure(attempt: LoginAttempt): void {
    for (const [buckets, key, size] of this.bucketsOf(attempt)) buckets.take(key, size);
  }
}
