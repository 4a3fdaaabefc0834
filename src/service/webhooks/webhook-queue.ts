import { randomUUID } from 'node:crypto';
import type { DeliveryStore } from './delivery-store.js';
import type { WebhookEvent } from './events.js';
import { renderBody } from './render.js';
import type { WebhookStore } from './webhook-store.js';

/**
 * Turns events into durable deliveries: one row per (event, subscribed endpoint), written in the
 * caller's transaction when there is one, so an event is queued exactly when its change is stored.
 */
export class WebhookQueue {
  /** Called after deliveries were queued; the dispatcher wakes on it. */
  onQueued: () => void = () => {};

  constructor(
    private readonly store: WebhookStore,
    private readonly deliveries: DeliveryStore,
    private readonly newDeliveryId: () => string = randomUUID,
  ) {}

  /** Queues each event for every enabled endpoint of the network subscribed to it; returns how many deliveries. */
  record(networkId: number, events: readonly WebhookEvent[]): number {
    if (events.length === 0) return 0;
    const endpoints = this.store.list(networkId).filter((endpoint) => endpoint.enabled);
    let queued = 0;
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (!endpoint.events.includes(event.name)) continue;
        const deliveryId = this.newDeliveryId();
        const body = renderBody(endpoint.format, endpoint.templates, event, deliveryId, endpoint.networkName);
        this.deliveries.enqueue({
          webhookId: endpoint.id,
          deliveryId,
          event: event.name,
          body,
          nowMs: event.occurredAtMs,
        });
        queued += 1;
      }
    }
    if (queued > 0) this.onQueued();
    return queued;
  }
}
