export type { EmbedTemplate, WebhookConfig, WebhookFormat, WebhookUpdate } from '../../webhooks/webhook-config.js';
export type { Webhook } from '../../webhooks/webhook-rows.js';

import type { WebhookConfig, WebhookUpdate } from '../../webhooks/webhook-config.js';
import type { Webhook } from '../../webhooks/webhook-rows.js';

/** The endpoints of each network. */
export interface WebhookStorePort {
  /** Returns the new endpoint's id. */
  create(networkId: number, config: WebhookConfig, nowMs: number): Promise<number>;
  /** Creates or replaces the network's endpoint of that name (the seed); pending deliveries stay. */
  upsertByName(networkId: number, config: WebhookConfig, nowMs: number): Promise<number>;
  /** Applies the given fields; false when the network has no such endpoint. */
  update(networkId: number, id: number, update: WebhookUpdate): Promise<boolean>;
  /** Deletes the endpoint with its queue and log. */
  remove(networkId: number, id: number): Promise<boolean>;
  find(networkId: number, id: number): Promise<Webhook | undefined>;
  isNameTaken(networkId: number, name: string, exceptId?: number): Promise<boolean>;
  /** The network's endpoints, by id. */
  list(networkId: number): Promise<Webhook[]>;
  /** Deliveries pending, for every endpoint of every network (the metrics' queue depth). */
  pendingDeliveries(): Promise<number>;
}
