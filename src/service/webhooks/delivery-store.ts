import type { Db } from '../../db/open-db.js';
import type { LogEntry, WebhookLog } from './webhook-log.js';

/** Newest dead deliveries kept per endpoint. */
export const MAX_DEAD_DELIVERIES = 500;

/** The oldest pending delivery of an endpoint, with what sending it needs. */
export interface QueueHead {
  rowId: number;
  webhookId: number;
  deliveryId: string;
  event: string;
  body: string;
  attempts: number;
  waits: number;
  availableAtMs: number;
  url: string;
  maxAttempts: number;
  blockedUntilMs: number;
}

/** What an answered try does to its delivery. */
export type DeliveryStep =
  | { action: 'delivered' }
  | { action: 'retry'; attempts: number; waits: number; availableAtMs: number }
  | { action: 'dead'; attempts: number };

/** The statements of {@link DeliveryStore}; test/service/query-plans.test.ts checks each one's plan. */
export const DELIVERY_SQL = {
  insert: `INSERT INTO service_webhook_deliveries (webhook_id, delivery_id, event, body, status, available_at, created_at)
       VALUES (@webhookId, @deliveryId, @event, @body, 'pending', @nowMs, @nowMs)`,
  // One row per endpoint (a network has a handful): each finds its oldest pending delivery in the queue index.
  heads: `SELECT d.id AS rowId, d.webhook_id AS webhookId, d.delivery_id AS deliveryId, d.event, d.body, d.attempts,
         d.waits, d.available_at AS availableAtMs, w.url, w.max_attempts AS maxAttempts,
         w.blocked_until AS blockedUntilMs
       FROM service_webhooks w
       JOIN service_webhook_deliveries d ON d.id = (
         SELECT min(id) FROM service_webhook_deliveries WHERE webhook_id = w.id AND status = 'pending')
       WHERE w.enabled = 1 ORDER BY d.id LIMIT ?`,
  remove: 'DELETE FROM service_webhook_deliveries WHERE id = ?',
  reschedule:
    'UPDATE service_webhook_deliveries SET attempts = @attempts, waits = @waits, available_at = @availableAtMs WHERE id = @rowId',
  kill: "UPDATE service_webhook_deliveries SET status = 'dead', attempts = @attempts WHERE id = @rowId",
  pruneDead: `DELETE FROM service_webhook_deliveries WHERE webhook_id = @webhookId AND status = 'dead' AND id <= (
         SELECT id FROM service_webhook_deliveries WHERE webhook_id = @webhookId AND status = 'dead'
         ORDER BY id DESC LIMIT 1 OFFSET ${MAX_DEAD_DELIVERIES})`,
  blockWebhook: 'UPDATE service_webhooks SET blocked_until = max(blocked_until, @untilMs) WHERE id = @webhookId',
  counts: `SELECT coalesce(sum(status = 'pending'), 0) AS pending, coalesce(sum(status = 'dead'), 0) AS dead
       FROM service_webhook_deliveries WHERE webhook_id = ?`,
} as const;

/** The durable queue: one row per (event, endpoint) until it is delivered; the rowid is the order. */
export class DeliveryStore {
  private readonly insert;
  private readonly heads;
  private readonly remove;
  private readonly reschedule;
  private readonly kill;
  private readonly pruneDead;
  private readonly blockWebhook;
  private readonly counts;

  constructor(
    private readonly db: Db,
    private readonly log: WebhookLog,
  ) {
    this.insert = db.prepare(DELIVERY_SQL.insert);
    this.heads = db.prepare<[number], QueueHead>(DELIVERY_SQL.heads);
    this.remove = db.prepare(DELIVERY_SQL.remove);
    this.reschedule = db.prepare(DELIVERY_SQL.reschedule);
    this.kill = db.prepare(DELIVERY_SQL.kill);
    this.pruneDead = db.prepare(DELIVERY_SQL.pruneDead);
    this.blockWebhook = db.prepare(DELIVERY_SQL.blockWebhook);
    this.counts = db.prepare<[number], { pending: number; dead: number }>(DELIVERY_SQL.counts);
  }

  enqueue(delivery: { webhookId: number; deliveryId: string; event: string; body: string; nowMs: number }): void {
    this.insert.run(delivery);
  }

  /** The oldest pending delivery of each enabled endpoint, oldest first. */
  queueHeads(limit: number): QueueHead[] {
    return this.heads.all(limit);
  }

  queueCounts(webhookId: number): { pending: number; dead: number } {
    return this.counts.get(webhookId) ?? { pending: 0, dead: 0 };
  }

  /** One answered try: the delivery's new state, the endpoint's retry window and the log entry, together. */
  recordAttempt(head: QueueHead, step: DeliveryStep, blockedUntilMs: number | undefined, entry: LogEntry): void {
    this.db.transaction(() => {
      if (step.action === 'delivered') this.remove.run(head.rowId);
      else if (step.action === 'retry') {
        const { attempts, waits, availableAtMs } = step;
        this.reschedule.run({ rowId: head.rowId, attempts, waits, availableAtMs });
      } else {
        this.kill.run({ rowId: head.rowId, attempts: step.attempts });
        this.pruneDead.run({ webhookId: head.webhookId });
      }
      if (blockedUntilMs !== undefined) this.block(head.webhookId, blockedUntilMs);
      this.log.add(entry);
    })();
  }

  /** No request to the endpoint before `untilMs` (a receiver's 429). */
  block(webhookId: number, untilMs: number): void {
    this.blockWebhook.run({ webhookId, untilMs });
  }
}
