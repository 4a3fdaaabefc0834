import { randomUUID } from 'node:crypto';
import type { ServiceStoresPorts } from '../store/ports/stores.js';
import type { WebhookEvent } from './events.js';
import { renderBody } from './render.js';

/**
 * Turns events into durable deliveries: one row per (event, subscribed endpoint), written through
 * the stores of the caller's transaction, so an event is queued exactly when its change is stored.
 */
export class WebhookQueue {
  /** Called once queued deliveries are stored (after the transaction that queued them); the dispatcher wakes on it. */
  onQueued: () => void = () => {};

  constructor(private readonly newDeliveryId: () => string = randomUUID) {}

  /**
   * Queues each event for every enabled endpoint of the network subscribed to it, through `stores`
   * (those of the transaction that stores the change); returns how many deliveries.
   */
  async record(
    networkId: number,
    events: readonly WebhookEvent[],
    stores: Pick<ServiceStoresPorts, 'webhooks' | 'webhookDeliveries'>,
  ): Promise<number> {
    if (events.length === 0) return 0;
    const endpoints = (await stores.webhooks.list(networkId)).filter((endpoint) => endpoint.enabled);
    let queued = 0;
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (!endpoint.events.includes(event.name)) continue;
        const deliveryId = this.newDeliveryId();
        const body = renderBody(endpoint.format, endpoint.templates, event, deliveryId, endpoint.networkName);
        await stores.webhookDeliveries.enqueue({
          webhookId: endpoint.id,
          deliveryId,
          event: event.name,
          body,
          nowMs: event.occurredAtMs,
        });
        queued += 1;
      }
    }
    // Before the commit another connection (PostgreSQL's pool) would not see them yet.
    if (queued > 0) stores.webhookDeliveries.whenStored(() => this.onQueued());
    return queued;
  }
}
