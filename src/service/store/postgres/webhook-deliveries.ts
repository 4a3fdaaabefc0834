import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { type DeliveryStep, MAX_DEAD_DELIVERIES, type QueueHead } from '../../webhooks/delivery-store.js';
import type { LogEntry } from '../../webhooks/webhook-log.js';
import { PgWebhookLog } from './webhook-log.js';

/** How long a claimed head waits before another instance looks at it again, when its lease end is not known yet. */
const CLAIMED_ELSEWHERE_RECHECK_MS = 1000;

/** The statements of {@link PgDeliveryStore}. */
export const PG_DELIVERY_SQL = pgStatements('webhookDeliveries', {
  insert: `INSERT INTO service_webhook_deliveries (webhook_id, delivery_id, event, body, status, available_at, created_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $5)`,
  // $1 limit, $2 now, $3 lease end, $4 this instance. Each endpoint's oldest pending delivery is its head; a due
  // head not leased by another instance is leased to this one in the same statement (a concurrent claim waits on
  // the row and then finds it leased), so one instance at a time sends an endpoint's head, and the order holds.
  claimHeads: `WITH heads AS (
         SELECT h.id FROM service_webhooks w
         CROSS JOIN LATERAL (SELECT id FROM service_webhook_deliveries
           WHERE webhook_id = w.id AND status = 'pending' ORDER BY id LIMIT 1) h
         WHERE w.enabled ORDER BY h.id LIMIT $1),
       claimed AS (
         UPDATE service_webhook_deliveries d SET leased_until = $3, leased_by = $4
         FROM heads, service_webhooks w
         WHERE d.id = heads.id AND w.id = d.webhook_id AND d.available_at <= $2 AND w.blocked_until <= $2
           AND (d.leased_until <= $2 OR d.leased_by = $4)
         RETURNING d.id)
       SELECT d.id AS "rowId", d.webhook_id AS "webhookId", d.delivery_id AS "deliveryId", d.event, d.body, d.attempts,
         d.waits, w.url, w.max_attempts AS "maxAttempts", w.blocked_until AS "blockedUntilMs",
         CASE WHEN c.id IS NOT NULL OR d.available_at > $2 OR w.blocked_until > $2 THEN d.available_at
           ELSE greatest(d.leased_until, $2 + ${CLAIMED_ELSEWHERE_RECHECK_MS}) END AS "availableAtMs"
       FROM heads JOIN service_webhook_deliveries d ON d.id = heads.id
       JOIN service_webhooks w ON w.id = d.webhook_id
       LEFT JOIN claimed c ON c.id = d.id ORDER BY d.id`,
  remove: 'DELETE FROM service_webhook_deliveries WHERE id = $1',
  reschedule: `UPDATE service_webhook_deliveries SET attempts = $2, waits = $3, available_at = $4, leased_until = 0,
         leased_by = NULL WHERE id = $1`,
  kill: `UPDATE service_webhook_deliveries SET status = 'dead', attempts = $2, leased_until = 0, leased_by = NULL
       WHERE id = $1`,
  pruneDead: `DELETE FROM service_webhook_deliveries WHERE webhook_id = $1 AND status = 'dead' AND id <= (
         SELECT id FROM service_webhook_deliveries WHERE webhook_id = $1 AND status = 'dead'
         ORDER BY id DESC LIMIT 1 OFFSET ${MAX_DEAD_DELIVERIES})`,
  blockWebhook: 'UPDATE service_webhooks SET blocked_until = greatest(blocked_until, $2) WHERE id = $1',
  counts: `SELECT count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'dead') AS dead
       FROM service_webhook_deliveries WHERE webhook_id = $1`,
});

/** What the queue needs to tell this instance's claims from another's. */
export interface DeliveryLeases {
  /** Names this instance in the lease column. */
  instanceId: string;
  /** How long a claimed head stays this instance's without an answer recorded (longer than a request's timeout). */
  leaseMs: number;
  nowMs: () => number;
}

/**
 * The durable webhook queue on PostgreSQL, shared by every instance. `queueHeads` leases the due
 * heads it returns to this instance; a head leased by another instance comes back not due (at its
 * lease's end), so the dispatcher leaves it alone. A lease ends with the recorded answer, or runs
 * out when its instance stopped mid-request, and the delivery is sent again with the same id.
 */
export class PgDeliveryStore {
  constructor(
    private readonly db: PgDb,
    private readonly leases: DeliveryLeases,
  ) {}

  async enqueue(delivery: {
    webhookId: number;
    deliveryId: string;
    event: string;
    body: string;
    nowMs: number;
  }): Promise<void> {
    await this.db.run(PG_DELIVERY_SQL.insert, [
      delivery.webhookId,
      delivery.deliveryId,
      delivery.event,
      delivery.body,
      delivery.nowMs,
    ]);
  }

  async queueHeads(limit: number): Promise<QueueHead[]> {
    const nowMs = this.leases.nowMs();
    return this.db.rows<QueueHead>(PG_DELIVERY_SQL.claimHeads, [
      limit,
      nowMs,
      nowMs + this.leases.leaseMs,
      this.leases.instanceId,
    ]);
  }

  async queueCounts(webhookId: number): Promise<{ pending: number; dead: number }> {
    const row = await this.db.row<{ pending: number; dead: number }>(PG_DELIVERY_SQL.counts, [webhookId]);
    return { pending: row?.pending ?? 0, dead: row?.dead ?? 0 };
  }

  async recordAttempt(
    head: QueueHead,
    step: DeliveryStep,
    blockedUntilMs: number | undefined,
    entry: LogEntry,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (step.action === 'delivered') await tx.run(PG_DELIVERY_SQL.remove, [head.rowId]);
      else if (step.action === 'retry') {
        await tx.run(PG_DELIVERY_SQL.reschedule, [head.rowId, step.attempts, step.waits, step.availableAtMs]);
      } else {
        await tx.run(PG_DELIVERY_SQL.kill, [head.rowId, step.attempts]);
        await tx.run(PG_DELIVERY_SQL.pruneDead, [head.webhookId]);
      }
      if (blockedUntilMs !== undefined) await tx.run(PG_DELIVERY_SQL.blockWebhook, [head.webhookId, blockedUntilMs]);
      await new PgWebhookLog(tx).add(entry);
    });
  }

  async block(webhookId: number, untilMs: number): Promise<void> {
    await this.db.run(PG_DELIVERY_SQL.blockWebhook, [webhookId, untilMs]);
  }
}
