import { describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../../src/service/webhooks/webhook-config.js';
import { DIALECTS, useConformanceStorage } from './backends.js';
import { twoNetworks } from './fixtures.js';

const config = (name: string): WebhookConfig => ({
  name,
  url: `http://127.0.0.1:9/${name}`,
  events: ['punishment.created'],
  format: 'json',
  templates: {},
  maxAttempts: 3,
  enabled: true,
});

const delivery = (webhookId: number, deliveryId: string) => ({
  webhookId,
  deliveryId,
  event: 'punishment.created',
  body: `{"id":"${deliveryId}"}`,
  nowMs: 1_000,
});

/** The metrics' webhook queue depth: pending deliveries of every endpoint of every network, dead ones left out. */
describe.each(DIALECTS)('webhook queue depth on %s', (dialect) => {
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
