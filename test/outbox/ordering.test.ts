import { describe, expect, it } from 'vitest';
import { settle } from '../support/fake-time.js';
import { apiErrors, deferred } from './helpers/fake-client.js';
import { ack, createHarness } from './helpers/outbox-harness.js';

const idOf = (call: { args: unknown[] }) => (call.args[0] as { punishmentId: string }).punishmentId;

describe('ordering key', () => {
  it('sends rows of one key one after another while other keys go in parallel', async () => {
    const { outbox, fake } = createHarness({ concurrency: 4 });
    const first = deferred();
    fake.answer((call) => (idOf(call) === 'a1' ? first.promise : { message: 'ok' }));
    outbox.enqueue(ack('a1'), { idempotencyKey: 'a1', orderingKey: 'punishment-a' });
    outbox.enqueue(ack('a2'), { idempotencyKey: 'a2', orderingKey: 'punishment-a' });
    outbox.enqueue(ack('b1'), { idempotencyKey: 'b1', orderingKey: 'punishment-b' });
    outbox.enqueue(ack('c1'), { idempotencyKey: 'c1' });
    outbox.start();
    await settle();
    expect(fake.calls.map(idOf)).toEqual(['a1', 'b1', 'c1']);
    first.resolve({ message: 'ok' });
    await settle();
    expect(fake.calls.map(idOf)).toEqual(['a1', 'b1', 'c1', 'a2']);
  });

  it('keeps later rows of a key waiting while an earlier one backs off, and lets them go after it is dead', async () => {
    const { outbox, fake, time, rows } = createHarness({ concurrency: 4 });
    fake.answer((call, index) => {
      if (idOf(call) === 'a1' && index === 0) throw apiErrors.http(503);
      if (idOf(call) === 'a1') throw apiErrors.http(404);
      return { message: 'ok' };
    });
    outbox.enqueue(ack('a1'), { idempotencyKey: 'a1', orderingKey: 'k' });
    outbox.enqueue(ack('a2'), { idempotencyKey: 'a2', orderingKey: 'k' });
    outbox.start();
    await settle();
    expect(fake.calls.map(idOf)).toEqual(['a1']);
    await time.advance(499);
    expect(fake.calls.map(idOf)).toEqual(['a1']);
    await time.advance(1);
    expect(fake.calls.map(idOf)).toEqual(['a1', 'a1', 'a2']);
    expect(rows().map((row) => row.status)).toEqual(['dead', 'sent']);
  });
});
