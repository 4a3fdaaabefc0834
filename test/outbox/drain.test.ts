import { describe, expect, it } from 'vitest';
import { settle } from '../support/fake-time.js';
import { apiErrors } from './helpers/fake-client.js';
import { ack, createHarness } from './helpers/outbox-harness.js';

const idOf = (call: { args: unknown[] }) => (call.args[0] as { punishmentId: string }).punishmentId;

describe('drain', () => {
  it('marks a 2xx as sent and emits the response', async () => {
    const { outbox, fake, rows, events } = createHarness();
    fake.answer(() => ({ message: 'acknowledged' }));
    const { id } = outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    outbox.start();
    await settle();
    expect(fake.calls.map((call) => call.args)).toEqual([
      [{ punishmentId: 'p1', playerUuid: expect.any(String), success: true }],
    ]);
    expect(rows()).toMatchObject([{ id, status: 'sent', attempts: 0 }]);
    expect(events).toEqual([
      {
        name: 'outbox:sent',
        event: {
          id,
          operation: 'acknowledgePunishment',
          idempotencyKey: 'ack:p1',
          response: { message: 'acknowledged' },
        },
      },
    ]);
  });

  it('honours Retry-After exactly and pauses the whole drain, without spending an attempt', async () => {
    const { outbox, fake, time, rows, events } = createHarness({ concurrency: 1 });
    fake.answer((_call, index) => {
      if (index === 0) throw apiErrors.rateLimited(5000);
      return { message: 'ok' };
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    outbox.enqueue(ack('p2'), { idempotencyKey: 'ack:p2' });
    const start = time.now();
    outbox.start();
    await settle();
    expect(fake.calls.map(idOf)).toEqual(['p1']);
    expect(outbox.stats().pausedUntil).toBe(start + 5000);
    await time.advance(4999);
    expect(fake.calls).toHaveLength(1); // neither the limited row nor any other row went out early
    await time.advance(1);
    // due rows go out by due time, then id: p2 has been due since the start
    expect(fake.calls.map((call) => [idOf(call), call.at - start])).toEqual([
      ['p1', 0],
      ['p2', 5000],
      ['p1', 5000],
    ]);
    expect(rows().map((row) => [row.status, row.attempts])).toEqual([
      ['sent', 0],
      ['sent', 0],
    ]);
    expect(events.filter((entry) => entry.name !== 'outbox:sent')).toEqual([
      { name: 'outbox:paused', event: { untilMs: start + 5000, reason: expect.stringContaining('rate limited') } },
      { name: 'outbox:retry', event: expect.objectContaining({ attempt: 0, delayMs: 5000 }) },
    ]);
    expect(outbox.stats().pausedUntil).toBeNull();
  });

  it('after a 503 with Retry-After (the service down as a whole), no row goes before the wait; an attempt is spent', async () => {
    const { outbox, fake, time, rows } = createHarness({ concurrency: 1, baseDelayMs: 100, maxDelayMs: 60_000 });
    fake.answer((_call, index) => {
      if (index === 0) throw apiErrors.http(503, 'the database cannot be reached', 'acknowledgePunishment', 4000);
      return { message: 'ok' };
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    outbox.enqueue(ack('p2'), { idempotencyKey: 'ack:p2' });
    const start = time.now();
    outbox.start();
    await settle();
    expect(outbox.stats().pausedUntil).toBe(start + 4000);
    await time.advance(3999);
    expect(fake.calls.map(idOf)).toEqual(['p1']);
    await time.advance(1);
    expect(fake.calls.map((call) => [idOf(call), call.at - start])).toEqual([
      ['p1', 0],
      ['p2', 4000],
      ['p1', 4000],
    ]);
    expect(rows().map((row) => [row.status, row.attempts])).toEqual([
      ['sent', 1],
      ['sent', 0],
    ]);
  });

  it('holds rows enqueued during a pause (default 30 s when no Retry-After) and drainNow does not cut it short', async () => {
    const { outbox, fake, time } = createHarness({ concurrency: 2 });
    fake.answer((_call, index) => {
      if (index === 0) throw apiErrors.rateLimited();
      return { message: 'ok' };
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    outbox.start();
    await settle();
    outbox.enqueue(ack('p2'), { idempotencyKey: 'ack:p2' });
    outbox.drainNow();
    await time.advance(29_999);
    expect(fake.calls.map(idOf)).toEqual(['p1']);
    await time.advance(1);
    expect(fake.calls.map(idOf).sort()).toEqual(['p1', 'p1', 'p2']);
  });

  it('backs off with growing, capped, jittered delays on 5xx, network failures and timeouts', async () => {
    const { outbox, fake, time, events } = createHarness({ baseDelayMs: 1000, maxDelayMs: 8000 }, () => 0.5);
    const failures = [
      apiErrors.http(500),
      apiErrors.network(),
      apiErrors.timeout(),
      apiErrors.http(503),
      apiErrors.http(502),
    ];
    fake.answer((_call, index) => {
      if (index < failures.length) throw failures[index];
      return { message: 'ok' };
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    const start = time.now();
    outbox.start();
    await time.advance(60_000);
    const retries = events.filter((entry) => entry.name === 'outbox:retry').map((entry) => entry.event);
    expect(retries.map((event) => (event as { delayMs: number }).delayMs)).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(retries.map((event) => (event as { attempt: number }).attempt)).toEqual([1, 2, 3, 4, 5]);
    // each attempt went out exactly when its backoff ran out, never before
    expect(fake.calls.map((call) => call.at - start)).toEqual([0, 500, 1500, 3500, 7500, 11_500]);
    expect(outbox.stats()).toMatchObject({ pending: 0, sent: 1 });
  });

  it.each([400, 403, 404, 413, 422])('dead-letters a %i with the reason and never retries it', async (status) => {
    const { outbox, fake, time, rows, events } = createHarness();
    fake.answer(() => {
      throw apiErrors.http(status, 'punishment not found');
    });
    const { id } = outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    outbox.start();
    await time.advance(3_600_000);
    expect(fake.calls).toHaveLength(1);
    expect(rows()).toMatchObject([
      { status: 'dead', attempts: 1, dead_reason: `rejected by the service: ${status} punishment not found` },
    ]);
    expect(events).toEqual([
      {
        name: 'outbox:dead',
        event: { id, operation: 'acknowledgePunishment', reason: expect.stringContaining(`${status}`), status },
      },
    ]);
    expect(outbox.deadLetters()).toMatchObject([{ id, operation: 'acknowledgePunishment', attempts: 1 }]);
  });

  it('dead-letters a request the client refused to send (its dead event carries no status)', async () => {
    const { outbox, fake, rows, events } = createHarness();
    fake.answer(() => {
      throw apiErrors.invalidRequest();
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    outbox.start();
    await settle();
    expect(rows()).toMatchObject([{ status: 'dead', dead_reason: expect.stringContaining('invalid_request') }]);
    const dead = events.find((entry) => entry.name === 'outbox:dead')?.event as Record<string, unknown>;
    expect(dead).toBeDefined();
    expect(dead).not.toHaveProperty('status');
  });

  it('keeps every row through a 401 and sends nothing until the wait the key rejection set has passed', async () => {
    const { outbox, fake, time, rows, events } = createHarness({ concurrency: 1 });
    fake.answer((_call, index) => {
      if (index === 0) throw apiErrors.http(401, 'invalid API key', 'acknowledgePunishment', 5000);
      return { message: 'ok' };
    });
    for (const id of ['p1', 'p2', 'p3']) outbox.enqueue(ack(id), { idempotencyKey: id });
    const start = time.now();
    outbox.start();
    await settle();
    expect(rows().map((row) => row.status)).toEqual(['pending', 'pending', 'pending']);
    expect(rows()[0]).toMatchObject({ attempts: 0 });
    expect(events.filter((entry) => entry.name === 'outbox:dead')).toEqual([]);
    expect(events.filter((entry) => entry.name === 'outbox:paused')).toEqual([
      { name: 'outbox:paused', event: { untilMs: start + 5000, reason: expect.stringContaining('401') } },
    ]);

    await time.advance(4999);
    expect(fake.calls).toHaveLength(1);
    await time.advance(1);
    await settle();
    expect(rows().map((row) => row.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('dead-letters a stored payload that no longer parses, without calling the service or throwing', async () => {
    const { db, outbox, fake, rows } = createHarness();
    const broken = outbox.enqueue(ack('p1'), { idempotencyKey: 'a' });
    const notJson = outbox.enqueue(ack('p2'), { idempotencyKey: 'b' });
    const good = outbox.enqueue(ack('p3'), { idempotencyKey: 'c' });
    db.prepare('UPDATE outbox SET payload = \'{"punishmentId":"p1"}\' WHERE id = ?').run(broken.id);
    db.prepare("UPDATE outbox SET payload = '{not json' WHERE id = ?").run(notJson.id);
    outbox.start();
    await settle();
    expect(fake.calls.map(idOf)).toEqual(['p3']);
    expect(rows()).toMatchObject([
      {
        id: broken.id,
        status: 'dead',
        dead_reason: expect.stringMatching(/^stored payload no longer parses: .*playerUuid/),
      },
      { id: notJson.id, status: 'dead', dead_reason: expect.stringMatching(/^stored payload is not JSON/) },
      { id: good.id, status: 'sent' },
    ]);
  });

  it('dead-letters after maxAttempts transient failures', async () => {
    const { outbox, fake, time, rows } = createHarness({ maxAttempts: 3 });
    fake.answer(() => {
      throw apiErrors.http(500, 'boom');
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'a' });
    outbox.start();
    await time.advance(3_600_000);
    expect(fake.calls).toHaveLength(3);
    expect(rows()).toMatchObject([{ status: 'dead', attempts: 3, dead_reason: 'gave up after 3 attempts: 500 boom' }]);
  });

  it('dead-letters a row still failing after maxAgeMs', async () => {
    const { outbox, fake, time, rows } = createHarness({ maxAgeMs: 60_000, maxDelayMs: 10_000 });
    fake.answer(() => {
      throw apiErrors.network();
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'a' });
    outbox.start();
    await time.advance(3_600_000);
    const last = fake.calls.at(-1)!;
    expect(last.at - fake.calls[0]!.at).toBeGreaterThanOrEqual(60_000);
    expect(rows()).toMatchObject([
      { status: 'dead', dead_reason: expect.stringMatching(/^gave up after .* of retries/) },
    ]);
  });

  it('counts a 2xx with an unexpected body as delivered', async () => {
    const { outbox, fake, rows } = createHarness();
    fake.answer(() => {
      throw apiErrors.invalidResponse();
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'a' });
    outbox.start();
    await settle();
    expect(rows()).toMatchObject([{ status: 'sent' }]);
  });
});
