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
    this.insert = db.prepare(
      `INSERT INTO service_webhook_deliveries (webhook_id, delivery_id, event, body, status, available_at, created_at)
       VALUES (@webhookId, @deliveryId, @event, @body, 'pending', @nowMs, @nowMs)`,
    );
    this.heads = db.prepare<[number], QueueHead>(
      `SELECT d.id AS rowId, d.webhook_id AS webhookId, d.delivery_id AS deliveryId, d.event, d.body, d.attempts,
         d.waits, d.available_at AS availableAtMs, w.url, w.max_attempts AS maxAttempts,
         w.blocked_until AS blockedUntilMs
       FROM (SELECT min(id) AS id FROM service_webhook_deliveries WHERE status = 'pending' GROUP BY webhook_id) first
       JOIN service_webhook_deliveries d ON d.id = first.id
       JOIN service_webhooks w ON w.id = d.webhook_id
       WHERE w.enabled = 1 ORDER BY d.id LIMIT ?`,
    );
    this.remove = db.prepare('DELETE FROM service_webhook_deliveries WHERE id = ?');
    this.reschedule = db.prepare(
      'UPDATE service_webhook_deliveries SET attempts = @attempts, waits = @waits, available_at = @availableAtMs WHERE id = @rowId',
    );
    this.kill = db.prepare(
      "UPDATE service_webhook_deliveries SET status = 'dead', attempts = @attempts WHERE id = @rowId",
    );
    this.pruneDead = db.prepare(
      `DELETE FROM service_webhook_deliveries WHERE webhook_id = @webhookId AND status = 'dead' AND id <= (
         SELECT id FROM service_webhook_deliveries WHERE webhook_id = @webhookId AND status = 'dead'
         ORDER BY id DESC LIMIT 1 OFFSET ${MAX_DEAD_DELIVERIES})`,
    );
    this.blockWebhook = db.prepare(
      'UPDATE service_webhooks SET blocked_until = max(blocked_until, @untilMs) WHERE id = @webhookId',
    );
    this.counts = db.prepare<[number], { pending: number; dead: number }>(
      `SELECT coalesce(sum(status = 'pending'), 0) AS pending, coalesce(sum(status = 'dead'), 0) AS dead
       FROM service_webhook_deliveries WHERE webhook_id = ?`,
    );
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
