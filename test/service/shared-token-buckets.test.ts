import { describe, expect, it } from 'vitest';
import {
  type BucketReservations,
  type Reservation,
  SharedTokenBuckets,
} from '../../src/service/http/shared-token-buckets.js';
import { FakeTime } from '../support/fake-time.js';

const SIZE = { capacity: 100, refillPerMinute: 100 };
const SETTINGS = { chunkFraction: 0.1, holdMs: 1000, maxKeys: 10, reservationsPerCleanup: 3 };

/** One shared bucket in memory, recording each reservation; answers wait until `release` when held. */
function sharedBucket(time: FakeTime) {
  let tokens = SIZE.capacity;
  let refilledAtMs = time.now();
  const calls: Array<{ wanted: number; returned: number }> = [];
  const forgotten: number[] = [];
  let gate: Promise<void> | undefined;
  let open: () => void = () => {};
  const reservations: BucketReservations = {
    async reserve(_key, bucket, wanted, returned, nowMs): Promise<Reservation> {
      calls.push({ wanted, returned });
      if (gate) await gate;
      tokens = Math.min(bucket.capacity, tokens + returned + (nowMs - refilledAtMs) * bucket.refillPerMs);
      refilledAtMs = nowMs;
      const granted = Math.min(wanted, Math.floor(tokens));
      tokens -= granted;
      return { granted, tokensLeft: tokens };
    },
    async forgetIdle(beforeMs) {
      forgotten.push(beforeMs);
      return 0;
    },
  };
  return {
    reservations,
    calls,
    forgotten,
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = undefined;
      open();
    },
  };
}

describe('SharedTokenBuckets (rate limits shared by instances)', () => {
  it('spends a reserved chunk from memory, asks again when it runs out, and refuses once the bucket is empty', async () => {
    const time = new FakeTime();
    const shared = sharedBucket(time);
    const buckets = new SharedTokenBuckets(shared.reservations, time, SETTINGS);
    const allowed: boolean[] = [];
    for (let n = 0; n < 101; n += 1) allowed.push((await buckets.take('key', SIZE)).isAllowed);
    expect(allowed).toEqual([...Array(100).fill(true), false]);
    // Ten chunks of ten, then one that found the bucket empty.
    expect(shared.calls).toHaveLength(11);
    const refused = await buckets.take('key', SIZE);
    // Refused from memory until a token is due, without asking again.
    expect(shared.calls).toHaveLength(11);
    expect(refused).toMatchObject({ isAllowed: false, msUntilToken: 600 });
    time.jump(600);
    expect((await buckets.take('key', SIZE)).isAllowed).toBe(true);
  });

  it('shares one reservation between the requests that arrive while it is on its way', async () => {
    const time = new FakeTime();
    const shared = sharedBucket(time);
    const buckets = new SharedTokenBuckets(shared.reservations, time, SETTINGS);
    shared.hold();
    const waiting = Array.from({ length: 5 }, () => buckets.take('key', SIZE));
    expect(shared.calls).toHaveLength(1);
    shared.release();
    const answers = await Promise.all(waiting);
    expect(answers.every((answer) => answer.isAllowed)).toBe(true);
    expect(shared.calls).toHaveLength(1);
  });

  it('gives back what it held too long, and forgets idle buckets every few reservations', async () => {
    const time = new FakeTime();
    const shared = sharedBucket(time);
    const buckets = new SharedTokenBuckets(shared.reservations, time, SETTINGS);
    await buckets.take('key', SIZE);
    time.jump(1000);
    await buckets.take('key', SIZE);
    expect(shared.calls).toEqual([
      { wanted: 10, returned: 0 },
      { wanted: 10, returned: 9 },
    ]);
    await buckets.take('other', SIZE);
    // The third reservation cleaned up: buckets idle for two minutes are full again.
    expect(shared.forgotten).toEqual([time.now() - 120_000]);
  });
});
