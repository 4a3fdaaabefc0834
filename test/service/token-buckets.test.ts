import { describe, expect, it } from 'vitest';
import { KeyRateLimits } from '../../src/service/http/rate-limit.js';
import { TokenBuckets } from '../../src/service/http/token-buckets.js';
import { ManualClock } from './helpers/fixture.js';

const SIZE = { capacity: 3, refillPerMinute: 3 };

describe('TokenBuckets', () => {
  it('starts full, refuses when empty with the wait for one token, and refills with the clock', () => {
    const clock = new ManualClock();
    const buckets = new TokenBuckets(clock, 100);
    const taken = [1, 2, 3, 4].map(() => buckets.take('a', SIZE));
    expect(taken.map((state) => [state.isAllowed, state.tokensLeft])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(taken[3]!.msUntilToken).toBe(20_000);
    clock.advance(15_000);
    expect(buckets.take('a', SIZE)).toMatchObject({ isAllowed: false, msUntilToken: 5_000 });
    clock.advance(5_000);
    expect(buckets.take('a', SIZE).isAllowed).toBe(true);
    // Never more than the capacity, however long the wait.
    clock.advance(3_600_000);
    expect(buckets.take('a', SIZE).tokensLeft).toBe(2);
  });

  it('looks without spending or remembering, and forgets the least recently used beyond its cap', () => {
    const buckets = new TokenBuckets(new ManualClock(), 2);
    expect(buckets.peek('never-seen', SIZE)).toMatchObject({ isAllowed: true, tokensLeft: 3 });
    expect(buckets.size).toBe(0);
    for (let index = 0; index < 3; index += 1) buckets.take('a', SIZE);
    buckets.take('b', SIZE);
    expect(buckets.peek('a', SIZE).isAllowed).toBe(false);
    // 'b' is now the least recently used: a third key drops it, and 'a' stays empty.
    buckets.take('c', SIZE);
    expect(buckets.size).toBe(2);
    expect(buckets.peek('a', SIZE).isAllowed).toBe(false);
    expect(buckets.peek('b', SIZE).tokensLeft).toBe(3);
  });
});

describe('KeyRateLimits.takeRequest (for callers outside the HTTP routes)', () => {
  it('spends the key’s request bucket, one bucket per key', async () => {
    const limits = new KeyRateLimits({ perMinute: 2, writesPerMinute: 5, allRoutes: false, clock: new ManualClock() });
    const take = async (key: string) => (await limits.takeRequest(key)).isAllowed;
    const first = 'first-server-key-0000000';
    expect([await take(first), await take(first), await take(first)]).toEqual([true, true, false]);
    expect(await take('second-server-key-000000')).toBe(true);
  });
});
