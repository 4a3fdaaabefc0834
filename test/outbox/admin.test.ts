import { describe, expect, it } from 'vitest';
import { settle } from '../support/fake-time.js';
import { apiErrors } from './helpers/fake-client.js';
import { ack, createHarness } from './helpers/outbox-harness.js';

describe('stats, dead letters and pruning', () => {
  it('reports counts, the oldest pending age and the next attempt time', async () => {
    const { outbox, fake, time } = createHarness();
    fake.answer((call) => {
      const id = (call.args[0] as { punishmentId: string }).punishmentId;
      if (id === 'bad') throw apiErrors.http(404);
      if (id === 'flaky') throw apiErrors.http(500);
      return { message: 'ok' };
    });
    const empty = outbox.stats();
    expect(empty).toEqual({
      pending: 0,
      inFlight: 0,
      dead: 0,
      sent: 0,
      oldestPendingAgeMs: null,
      nextAttemptAt: null,
      pausedUntil: null,
    });
    const start = time.now();
    for (const id of ['ok', 'bad', 'flaky']) outbox.enqueue(ack(id), { idempotencyKey: id });
    time.jump(2000);
    outbox.start();
    await settle();
    expect(outbox.stats()).toEqual({
      pending: 1,
      inFlight: 0,
      dead: 1,
      sent: 1,
      oldestPendingAgeMs: 2000,
      nextAttemptAt: start + 2000 + 500,
      pausedUntil: null,
    });
    await outbox.stop();
  });

  it('requeues dead letters, all or by id, with a fresh attempt count', async () => {
    const { outbox, fake, rows } = createHarness();
    let rejecting = true;
    fake.answer(() => {
      if (rejecting) throw apiErrors.http(400, 'bad');
      return { message: 'ok' };
    });
    const ids = ['a', 'b', 'c'].map((key) => outbox.enqueue(ack(key), { idempotencyKey: key }).id);
    outbox.start();
    await settle();
    expect(outbox.deadLetters().map((letter) => letter.id)).toEqual(ids);
    expect(outbox.deadLetters(1)).toHaveLength(1);
    rejecting = false;
    expect(outbox.retryDead([ids[0]!, 999])).toBe(1);
    await settle();
    expect(rows().map((row) => row.status)).toEqual(['sent', 'dead', 'dead']);
    expect(outbox.retryDead()).toBe(2);
    await settle();
    expect(rows().map((row) => [row.status, row.attempts])).toEqual([
      ['sent', 0],
      ['sent', 0],
      ['sent', 0],
    ]);
    expect(outbox.retryDead()).toBe(0);
  });

  it('prunes delivered rows after keepSentMs', async () => {
    const { outbox, time, rows } = createHarness({ keepSentMs: 60_000 });
    outbox.enqueue(ack('old'), { idempotencyKey: 'old' });
    outbox.start();
    await settle();
    expect(rows().map((row) => row.status)).toEqual(['sent']);
    await time.advance(60_000);
    outbox.enqueue(ack('new'), { idempotencyKey: 'new' });
    await settle();
    expect(rows().map((row) => row.id)).toEqual([2]);
    await outbox.stop();
  });
});
