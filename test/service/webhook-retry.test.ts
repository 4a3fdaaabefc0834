import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/logger.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';
import { WebhookDispatcher } from '../../src/service/webhooks/dispatcher.js';
import { type AttemptResult, nextStep, type RetryPolicy } from '../../src/service/webhooks/retry-schedule.js';
import type { WebhookFetch } from '../../src/service/webhooks/send.js';
import { WebhookQueue } from '../../src/service/webhooks/webhook-queue.js';
import { FakeTime } from '../support/fake-time.js';
import { PUNISHMENT_HOOK } from './helpers/webhook-config.js';

const NOW = 1_000_000;
const POLICY: RetryPolicy = {
  backoff: { baseDelayMs: 1000, maxDelayMs: 60_000 },
  maxFreeWaits: 2,
  maxRetryAfterMs: 3_600_000,
};
const half = () => 0.5;
const tries = (attempts: number, waits = 0) => ({ attempts, waits, maxAttempts: 5 });

describe('retry schedule', () => {
  it('a 429 with a retry time waits exactly that long, blocks the endpoint, and spends no try', () => {
    const result: AttemptResult = { kind: 'retryable', statusCode: 429, retryAfterMs: 2500 };
    expect(nextStep(tries(1), result, NOW, POLICY, half)).toEqual({
      action: 'retry',
      attempts: 1,
      waits: 1,
      availableAtMs: NOW + 2500,
      blockedUntilMs: NOW + 2500,
    });
  });

  it('a 429 beyond the free waits spends a try, still never sooner than the retry time', () => {
    const result: AttemptResult = { kind: 'retryable', statusCode: 429, retryAfterMs: 2500 };
    expect(nextStep(tries(1, 2), result, NOW, POLICY, half)).toEqual({
      action: 'retry',
      attempts: 2,
      waits: 2,
      availableAtMs: NOW + 2500,
      blockedUntilMs: NOW + 2500,
    });
  });

  it('5xx and network errors back off exponentially with full jitter, capped', () => {
    const failure: AttemptResult = { kind: 'retryable', statusCode: 500 };
    const delays = [0, 1, 2, 3].map((attempts) => nextStep(tries(attempts), failure, NOW, POLICY, half));
    expect(delays.map((step) => (step.action === 'retry' ? step.availableAtMs - NOW : step.action))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    const capped = nextStep({ attempts: 20, waits: 0, maxAttempts: 50 }, failure, NOW, POLICY, () => 0.999);
    expect(capped.action === 'retry' && capped.availableAtMs - NOW).toBe(59_940);
    const lost: AttemptResult = { kind: 'retryable', statusCode: null };
    expect(nextStep(tries(0), lost, NOW, POLICY, () => 0)).toMatchObject({
      action: 'retry',
      attempts: 1,
      availableAtMs: NOW,
    });
  });

  it('a 503 with Retry-After longer than the backoff waits for it and blocks the endpoint', () => {
    const result: AttemptResult = { kind: 'retryable', statusCode: 503, retryAfterMs: 30_000 };
    expect(nextStep(tries(0), result, NOW, POLICY, half)).toEqual({
      action: 'retry',
      attempts: 1,
      waits: 0,
      availableAtMs: NOW + 30_000,
      blockedUntilMs: NOW + 30_000,
    });
  });

  it('the try that reaches maxAttempts is dead; a refusal is dead at once', () => {
    expect(nextStep(tries(4), { kind: 'retryable', statusCode: 502 }, NOW, POLICY, half)).toEqual({
      action: 'dead',
      attempts: 5,
    });
    expect(nextStep(tries(0), { kind: 'refused', statusCode: 404 }, NOW, POLICY, half)).toEqual({
      action: 'dead',
      attempts: 1,
    });
    expect(nextStep(tries(3), { kind: 'delivered', statusCode: 204 }, NOW, POLICY, half)).toEqual({
      action: 'delivered',
    });
  });

  it('a retry time beyond the longest honoured is cut to it', () => {
    const result: AttemptResult = { kind: 'retryable', statusCode: 429, retryAfterMs: 10 * 3_600_000 };
    expect(nextStep(tries(0), result, NOW, POLICY, half)).toMatchObject({ blockedUntilMs: NOW + 3_600_000 });
  });
});

describe('dispatcher with a fake clock', () => {
  async function setup(answers: Response[]) {
    const storage = await openSqliteStorage(':memory:');
    await storage.stores.networks.ensureNetwork('alpha');
    const { webhooks: store, webhookDeliveries: deliveries, webhookLog: log } = storage.stores;
    const timers = new FakeTime(NOW);
    const clock = timers;
    const calls: { atMs: number; deliveryId: string }[] = [];
    const fetch: WebhookFetch = async (_url, init) => {
      calls.push({ atMs: clock.now(), deliveryId: JSON.parse(init.body as string).deliveryId });
      return answers.shift() ?? new Response(null, { status: 204 });
    };
    const dispatcher = new WebhookDispatcher(deliveries, {
      fetch,
      clock,
      timers,
      random: half,
      logger: silentLogger,
      policy: POLICY,
      requestTimeoutMs: 10_000,
      maxConcurrent: 4,
    });
    let next = 0;
    const queue = new WebhookQueue(() => `d${++next}`);
    queue.onQueued = () => dispatcher.wake();
    await store.create(1, PUNISHMENT_HOOK, NOW);
    const event = (reason: string) => ({
      name: 'punishment.created' as const,
      occurredAtMs: clock.now(),
      values: { reason },
    });
    let owedMs = 0;
    // Moves the clock by what `advance` asked, firing due timers and letting the attempts they start finish.
    async function run() {
      const ms = owedMs;
      owedMs = 0;
      await timers.advance(ms);
      for (let round = 0; round < 5; round += 1) await timers.advance(0);
    }
    function advance(ms: number) {
      owedMs += ms;
    }
    const record = (events: Parameters<WebhookQueue['record']>[1]) => queue.record(1, events, storage.stores);
    return { storage, store, deliveries, log, record, dispatcher, calls, run, advance, event, timers };
  }

  it('sends nothing inside a 429 window, then the waiting delivery before the later one', async () => {
    const rateLimited = new Response(JSON.stringify({ retry_after: 5 }), { status: 429 });
    const t = await setup([rateLimited]);
    await t.record([t.event('first'), t.event('second')]);
    await t.run();
    expect(t.calls).toEqual([{ atMs: NOW, deliveryId: 'd1' }]);
    expect(t.timers.delays()).toEqual([5000]);

    t.advance(4999);
    await t.run();
    expect(t.calls).toHaveLength(1);

    t.advance(1);
    await t.run();
    expect(t.calls).toEqual([
      { atMs: NOW, deliveryId: 'd1' },
      { atMs: NOW + 5000, deliveryId: 'd1' },
      { atMs: NOW + 5000, deliveryId: 'd2' },
    ]);
    expect(await t.deliveries.queueCounts(1)).toEqual({ pending: 0, dead: 0 });
    await t.dispatcher.close();
    await t.storage.close();
  });

  it('backs off after a 500 by the schedule, and resends the same delivery id', async () => {
    const t = await setup([new Response('oops', { status: 500 }), new Response('oops', { status: 500 })]);
    await t.record([t.event('only')]);
    await t.run();
    expect(t.timers.delays()).toEqual([500]);
    t.advance(500);
    await t.run();
    expect(t.timers.delays()).toEqual([1000]);
    t.advance(1000);
    await t.run();
    expect(t.calls.map((call) => [call.atMs - NOW, call.deliveryId])).toEqual([
      [0, 'd1'],
      [500, 'd1'],
      [1500, 'd1'],
    ]);
    const log = (await t.log.entries(1, 10)).map((entry) => [entry.outcome, entry.statusCode]);
    expect(log).toEqual([
      ['delivered', 204],
      ['retrying', 500],
      ['retrying', 500],
    ]);
    await t.dispatcher.close();
    await t.storage.close();
  });
});
