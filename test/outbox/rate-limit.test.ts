import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { createOutbox } from '../../src/outbox/index.js';
import { rateLimitWindow } from '../../src/outbox/rate.js';
import { systemTimers } from '../../src/ports/timers.js';
import { apiErrors, createFakeClient } from './helpers/fake-client.js';
import { ack } from './helpers/outbox-harness.js';

// p-queue keeps its interval with the global timers, so this file fakes those (not setImmediate).
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    now: 1_767_225_600_000,
  });
});
afterEach(() => {
  vi.useRealTimers();
});

async function flush(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('requests per minute', () => {
  it('spreads the per-minute budget over one-second windows', () => {
    expect(rateLimitWindow(600)).toEqual({ intervalCap: 10, interval: 1000 });
    expect(rateLimitWindow(30)).toEqual({ intervalCap: 1, interval: 2000 });
    expect(rateLimitWindow(1)).toEqual({ intervalCap: 1, interval: 60_000 });
  });

  it('starts no more calls per window than the cap allows', async () => {
    const fake = createFakeClient(Date.now);
    const timers = {
      setTimeout: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs),
      clearTimeout: systemTimers.clearTimeout,
    };
    const outbox = createOutbox({
      db: openDb(':memory:'),
      client: fake.client,
      clock: { now: Date.now },
      timers,
      settings: { requestsPerMinute: 120, concurrency: 8 },
    });
    for (let index = 0; index < 7; index += 1) outbox.enqueue(ack(`p${index}`), { idempotencyKey: `k${index}` });
    outbox.start();
    await flush();
    const seen: number[] = [fake.calls.length];
    for (let window = 0; window < 3; window += 1) {
      await vi.advanceTimersByTimeAsync(1000);
      await flush();
      seen.push(fake.calls.length);
    }
    expect(seen).toEqual([2, 4, 6, 7]);
    expect(outbox.stats()).toMatchObject({ sent: 7, pending: 0 });
    await outbox.stop();
  });

  it('hands rows waiting for the rate window back instead of sending them during a 429 pause', async () => {
    const fake = createFakeClient(Date.now);
    fake.answer((_call, index) => {
      if (index === 0) throw apiErrors.rateLimited(10_000);
      return { message: 'ok' };
    });
    const timers = {
      setTimeout: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs),
      clearTimeout: systemTimers.clearTimeout,
    };
    const db = openDb(':memory:');
    const outbox = createOutbox({
      db,
      client: fake.client,
      clock: { now: Date.now },
      timers,
      settings: { requestsPerMinute: 60, concurrency: 4 },
    });
    for (let index = 0; index < 4; index += 1) outbox.enqueue(ack(`p${index}`), { idempotencyKey: `k${index}` });
    const start = Date.now();
    outbox.start();
    await flush();
    expect(fake.calls).toHaveLength(1);
    for (let second = 0; second < 9; second += 1) {
      await vi.advanceTimersByTimeAsync(1000);
      await flush();
    }
    expect(fake.calls).toHaveLength(1); // three claimed rows reached the front of the queue during the pause
    expect(db.prepare("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get()).toBe(4);
    for (let second = 0; second < 6; second += 1) {
      await vi.advanceTimersByTimeAsync(1000);
      await flush();
    }
    expect(fake.calls.every((call, index) => index === 0 || call.at >= start + 10_000)).toBe(true);
    expect(outbox.stats()).toMatchObject({ sent: 4, pending: 0, inFlight: 0 });
    await outbox.stop();
  });
});
