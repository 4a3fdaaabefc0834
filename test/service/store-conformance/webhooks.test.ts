import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { webhookConfigFixture as config, deliveryFixture as delivery, twoNetworks } from './fixtures.js';

const entry = (webhookId: number, deliveryId: string, outcome: string) => ({
  webhookId,
  deliveryId,
  event: 'punishment.created',
  attemptedAtMs: 5_000,
  outcome,
  statusCode: 200,
  excerpt: 'ok',
});

describe.each(BACKENDS)('webhook stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('creates, renames, updates and deletes endpoints per network', async () => {
    const { webhooks } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const first = await webhooks.create(alpha, config('discord'), 1_000);
    expect(await webhooks.find(alpha, first)).toMatchObject({
      id: first,
      networkId: alpha,
      networkName: 'alpha',
      name: 'discord',
      events: ['punishment.created'],
      enabled: true,
      blockedUntilMs: 0,
    });
    expect(await webhooks.find(beta, first)).toBeUndefined();
    expect(await webhooks.isNameTaken(alpha, 'discord')).toBe(true);
    expect(await webhooks.isNameTaken(alpha, 'discord', first)).toBe(false);
    expect(await webhooks.upsertByName(alpha, config('discord', { maxAttempts: 9 }), 2_000)).toBe(first);
    expect(await webhooks.update(alpha, first, { enabled: false })).toBe(true);
    expect(await webhooks.update(beta, first, { enabled: false })).toBe(false);
    expect(await webhooks.find(alpha, first)).toMatchObject({ maxAttempts: 9, enabled: false });
    const second = await webhooks.upsertByName(alpha, config('audit'), 2_000);
    expect((await webhooks.list(alpha)).map((webhook) => webhook.name)).toEqual(['discord', 'audit']);
    expect(await webhooks.remove(beta, second)).toBe(false);
    expect(await webhooks.remove(alpha, second)).toBe(true);
    expect((await webhooks.list(alpha)).map((webhook) => webhook.id)).toEqual([first]);
  });

  it('sends each endpoint’s oldest pending delivery first, keeps retries, dead ones and the log', async () => {
    const { webhooks, webhookDeliveries, webhookLog } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const one = await webhooks.create(alpha, config('one'), 0);
    const two = await webhooks.create(alpha, config('two'), 0);
    await webhookDeliveries.enqueue(delivery(one, 'd1', 0));
    await webhookDeliveries.enqueue(delivery(one, 'd2', 0));
    await webhookDeliveries.enqueue(delivery(two, 'd3', 0));

    const heads = await webhookDeliveries.queueHeads(10);
    expect(heads.map((head) => [head.webhookId, head.deliveryId, head.availableAtMs])).toEqual([
      [one, 'd1', 0],
      [two, 'd3', 0],
    ]);
    const [d1, d3] = heads;
    await webhookDeliveries.recordAttempt(d1!, { action: 'delivered' }, undefined, entry(one, 'd1', 'delivered'));
    await webhookDeliveries.recordAttempt(
      d3!,
      { action: 'retry', attempts: 1, waits: 0, availableAtMs: 9_000 },
      7_000,
      entry(two, 'd3', 'retrying'),
    );
    const next = await webhookDeliveries.queueHeads(10);
    expect(next.map((head) => [head.deliveryId, head.attempts, head.availableAtMs, head.blockedUntilMs])).toEqual([
      ['d2', 0, 0, 0],
      ['d3', 1, 9_000, 7_000],
    ]);
    await webhookDeliveries.recordAttempt(
      next[0]!,
      { action: 'dead', attempts: 3 },
      undefined,
      entry(one, 'd2', 'dead'),
    );
    expect(await webhookDeliveries.queueCounts(one)).toEqual({ pending: 0, dead: 1 });
    expect(await webhookDeliveries.queueCounts(two)).toEqual({ pending: 1, dead: 0 });
    expect((await webhookLog.entries(one, 10)).map((logged) => logged.outcome)).toEqual(['dead', 'delivered']);
    expect(await webhookLog.entries(one, 1)).toEqual([entry(one, 'd2', 'dead')]);

    // A disabled endpoint sends nothing; deleting it takes its queue and log along.
    await webhooks.update(alpha, two, { enabled: false });
    expect(await webhookDeliveries.queueHeads(10)).toEqual([]);
    await webhooks.remove(alpha, one);
    expect(await webhookLog.entries(one, 10)).toEqual([]);
    expect(await webhookDeliveries.queueCounts(one)).toEqual({ pending: 0, dead: 0 });
  });
});
