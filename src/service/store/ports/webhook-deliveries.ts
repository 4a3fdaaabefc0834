export type { DeliveryStep, QueueHead } from '../../webhooks/delivery-store.js';
export { MAX_DEAD_DELIVERIES } from '../../webhooks/delivery-store.js';

import type { DeliveryStep, QueueHead } from '../../webhooks/delivery-store.js';
import type { LogEntry } from '../../webhooks/webhook-log.js';

/** A delivery as it is queued. */
export interface NewDelivery {
  webhookId: number;
  deliveryId: string;
  event: string;
  body: string;
  nowMs: number;
}

/** The durable queue: one row per (event, endpoint) until it is delivered; insertion order is the order. */
export interface DeliveryStorePort {
  enqueue(delivery: NewDelivery): Promise<void>;
  /**
   * Runs `callback` once what these stores wrote is visible to the other connections: when the
   * transaction they belong to has ended, or at once outside of one (the dispatcher is woken so).
   */
  whenStored(callback: () => void): void;
  /** The oldest pending delivery of each enabled endpoint, oldest first. */
  queueHeads(limit: number): Promise<QueueHead[]>;
  queueCounts(webhookId: number): Promise<{ pending: number; dead: number }>;
  /**
   * One answered try, atomically: the delivery's new state (a dead one keeps at most
   * MAX_DEAD_DELIVERIES per endpoint), the endpoint's retry window and the log entry.
   */
  recordAttempt(
    head: QueueHead,
    step: DeliveryStep,
    blockedUntilMs: number | undefined,
    entry: LogEntry,
  ): Promise<void>;
  /** No request to the endpoint before `untilMs` (a receiver's 429); an earlier time never shortens it. */
  block(webhookId: number, untilMs: number): Promise<void>;
}
