import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { webhookConfigFixture as config, deliveryFixture as delivery, twoNetworks } from './fixtures.js';

/** The metrics' webhook queue depth: pending deliveries of every endpoint of every network, dead ones left out. */
describe.each(BACKENDS)('webhook queue depth on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('counts the pending deliveries of every network as a number', async () => {
    const { webhooks, webhookDeliveries } = storage().stores;
    expect(await webhooks.pendingDeliveries()).toBe(0);
    const { alpha, beta } = await twoNetworks(storage().stores);
    const discord = await webhooks.create(alpha, config('discord'), 1_000);
    const other = await webhooks.create(beta, config('other'), 1_000);
    for (const id of ['d1', 'd2', 'd3']) await webhookDeliveries.enqueue(delivery(discord, id));
    await webhookDeliveries.enqueue(delivery(other, 'o1'));
    expect(await webhooks.pendingDeliveries()).toBe(4);

    const [head] = await webhookDeliveries.queueHeads(10);
    await webhookDeliveries.recordAttempt(head!, { action: 'dead', attempts: 3 }, undefined, {
      webhookId: head!.webhookId,
      deliveryId: head!.deliveryId,
      event: head!.event,
      attemptedAtMs: 2_000,
      outcome: 'dead',
      statusCode: 500,
      excerpt: 'no',
    });
    expect(await webhooks.pendingDeliveries()).toBe(3);
  });
});
