import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/logger.js';
import type { KyselyStorage } from '../../src/service/store/kysely-storage.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';
import type { DeliveryStorePort, QueueHead } from '../../src/service/store/ports/webhook-deliveries.js';
import { WebhookDispatcher } from '../../src/service/webhooks/dispatcher.js';
import type { WebhookFetch } from '../../src/service/webhooks/send.js';
import { WebhookQueue } from '../../src/service/webhooks/webhook-queue.js';
import { FakeTime, settle } from '../support/fake-time.js';
import { PUNISHMENT_HOOK } from './helpers/webhook-config.js';

const NOW = 1_000_000;

let storage: KyselyStorage | undefined;
let dispatcher: WebhookDispatcher | undefined;

afterEach(async () => {
  await dispatcher?.close();
  await storage?.close();
  dispatcher = undefined;
  storage = undefined;
});

/**
 * PostgreSQL reads the queue when the statement runs and answers later: an attempt may finish in
 * between. A store that reads at once but answers only when the test says so shows that moment.
 */
function answeringLater(deliveries: DeliveryStorePort) {
  const held: (() => void)[] = [];
  let holding = false;
  const store: DeliveryStorePort = {
    enqueue: (delivery) => deliveries.enqueue(delivery),
    whenStored: (callback) => deliveries.whenStored(callback),
    queueCounts: (webhookId) => deliveries.queueCounts(webhookId),
    recordAttempt: (...args) => deliveries.recordAttempt(...args),
    block: (webhookId, untilMs) => deliveries.block(webhookId, untilMs),
    async queueHeads(limit) {
      const heads = await deliveries.queueHeads(limit);
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return heads;
    },
  };
  return {
    store,
    holdAnswers: () => {
      holding = true;
    },
    releaseAnswers: () => {
      holding = false;
      for (const release of held.splice(0)) release();
    },
    heldCount: () => held.length,
  };
}

function dispatcherOn(store: DeliveryStorePort, fetch: WebhookFetch, time: FakeTime): WebhookDispatcher {
  return new WebhookDispatcher(store, {
    fetch,
    clock: time,
    timers: time,
    random: () => 0.5,
    logger: silentLogger,
    policy: { backoff: { baseDelayMs: 1000, maxDelayMs: 60_000 }, maxFreeWaits: 2, maxRetryAfterMs: 3_600_000 },
    requestTimeoutMs: 10_000,
    maxConcurrent: 4,
  });
}

describe('webhook dispatcher: a queue read that answers later than it reads', () => {
  it('does not send the delivery that was answered meanwhile a second time', async () => {
    storage = await openSqliteStorage(':memory:');
    await storage.stores.networks.ensureNetwork('alpha');
    const { webhooks, webhookDeliveries } = storage.stores;
    const time = new FakeTime(NOW);
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    const fetch: WebhookFetch = (_url, init) => {
      sent.push(JSON.parse(init.body as string).deliveryId);
      return new Promise((resolve) => answers.push(() => resolve(new Response(null, { status: 204 }))));
    };
    const queue = answeringLater(webhookDeliveries);
    dispatcher = dispatcherOn(queue.store, fetch, time);
    await webhooks.create(1, PUNISHMENT_HOOK, NOW);
    let next = 0;
    const events = new WebhookQueue(() => `d${++next}`);
    await events.record(
      1,
      [{ name: 'punishment.created', occurredAtMs: NOW, values: { reason: 'x' } }],
      storage.stores,
    );

    dispatcher.wake();
    await time.advance(0);
    await settle();
    expect(sent).toEqual(['d1']);

    // A second read of the queue starts while d1 is in flight and sees d1 still pending...
    queue.holdAnswers();
    dispatcher.wake();
    await time.advance(0);
    await settle();
    expect(queue.heldCount()).toBe(1);
    // ...d1 is answered and removed from the queue before that read answers.
    answers.shift()!();
    await settle();
    await time.advance(0);
    await settle();
    expect(await webhookDeliveries.queueCounts(1)).toEqual({ pending: 0, dead: 0 });

    queue.releaseAnswers();
    await settle();
    await time.advance(0);
    await settle();
    expect(sent).toEqual(['d1']);
  });

  it('does not send a head that fell due while the read was answering: the next read leases it first', async () => {
    const time = new FakeTime(NOW);
    const head: QueueHead = {
      rowId: 1,
      webhookId: 1,
      deliveryId: 'd1',
      event: 'punishment.created',
      body: '{}',
      attempts: 0,
      waits: 0,
      availableAtMs: NOW + 300,
      url: 'https://receiver.example/hook',
      maxAttempts: 5,
      blockedUntilMs: 0,
    };
    let leased = false;
    let delivered = false;
    // As on PostgreSQL: a read leases the heads due when it runs, in the same statement; later ones it only lists.
    const fake: DeliveryStorePort = {
      enqueue: async () => {},
      whenStored: (callback) => callback(),
      queueCounts: async () => ({ pending: delivered ? 0 : 1, dead: 0 }),
      block: async () => {},
      recordAttempt: async () => {
        delivered = true;
      },
      queueHeads: async () => {
        if (delivered) return [];
        if (head.availableAtMs <= time.now()) leased = true;
        return [{ ...head }];
      },
    };
    // Whether the head was leased to this reader when it was sent, for each send.
    const sentLeased: boolean[] = [];
    const fetch: WebhookFetch = async () => {
      sentLeased.push(leased);
      return new Response(null, { status: 204 });
    };
    const queue = answeringLater(fake);
    dispatcher = dispatcherOn(queue.store, fetch, time);

    // The read runs 5 ms before the head is due, and its answer comes 5 ms after.
    queue.holdAnswers();
    await time.advance(295);
    dispatcher.wake();
    await time.advance(0);
    await settle();
    expect(queue.heldCount()).toBe(1);
    await time.advance(10);
    queue.releaseAnswers();
    await settle();
    expect(sentLeased).toEqual([]);

    await time.advance(0);
    await settle();
    expect(sentLeased).toEqual([true]);
    expect(delivered).toBe(true);
  });
});
