import { randomBytes } from 'node:crypto';
import { sql as raw } from 'kysely';
import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import {
  type DeliveryStep,
  type DeliveryStorePort,
  MAX_DEAD_DELIVERIES,
  type NewDelivery,
  type QueueHead,
} from './ports/webhook-deliveries.js';
import type { LogEntry } from './ports/webhook-log.js';
import { WebhookLog } from './webhook-log.js';

/** How long a head leased by another instance waits before this one looks at it again, when its lease end is not known yet. */
const RECHECK_MS = 1000;

/** What the queue needs to tell this instance's leases from another's. */
export interface DeliveryLeases {
  /** Names this instance in the lease column. */
  instanceId: string;
  /** How long a leased head stays this instance's without an answer recorded (longer than a request's timeout). */
  leaseMs: number;
  nowMs: () => number;
}

/** A lease identity of its own: one per running instance. */
export const instanceLeases = (): DeliveryLeases => ({
  instanceId: randomBytes(8).toString('hex'),
  leaseMs: 60_000,
  nowMs: () => Date.now(),
});

type HeadRow = QueueHead & { leasedUntilMs: number; leasedBy: string | null };
type ById = { rowId: number };
type Lease = { rowIds: number[]; nowMs: number; leasedUntilMs: number; instanceId: string };

const PENDING = raw.lit('pending');
const DEAD = raw.lit('dead');

/** The statements of {@link DeliveryStore}; the query-plan tests check each one's plan. */
export const DELIVERY_STATEMENTS = {
  insert: prepare<NewDelivery, never>('webhookDeliveries.insert', ({ db }, p) =>
    db.insertInto('service_webhook_deliveries').values({
      webhook_id: p.webhookId,
      delivery_id: p.deliveryId,
      event: p.event,
      body: p.body,
      status: PENDING,
      available_at: p.nowMs,
      created_at: p.nowMs,
    }),
  ),
  // One row per endpoint (a network has a handful): each finds its oldest pending delivery in the queue index.
  heads: prepare<{ limit: number }, HeadRow>('webhookDeliveries.heads', ({ db }, p) =>
    db
      .selectFrom('service_webhooks as w')
      .innerJoin('service_webhook_deliveries as d', (join) =>
        join.on('d.id', '=', (eb) =>
          eb
            .selectFrom('service_webhook_deliveries as h')
            .select('h.id')
            .whereRef('h.webhook_id', '=', 'w.id')
            .where('h.status', '=', PENDING)
            .orderBy('h.id')
            .limit(raw.lit(1)),
        ),
      )
      .select([
        'd.id as rowId',
        'd.webhook_id as webhookId',
        'd.delivery_id as deliveryId',
        'd.event',
        'd.body',
        'd.attempts',
        'd.waits',
        'd.available_at as availableAtMs',
        'd.leased_until as leasedUntilMs',
        'd.leased_by as leasedBy',
        'w.url',
        'w.max_attempts as maxAttempts',
        'w.blocked_until as blockedUntilMs',
      ])
      .where('w.enabled', '=', raw.lit(true))
      .orderBy('d.id')
      .limit(p.limit),
  ),
  // A due head not leased by another instance becomes this one's; a concurrent lease waits on the row, then finds it
  // leased (the conditions are checked again on the row it waited for), so one instance at a time sends a head.
  lease: prepare<Lease, { id: number }>('webhookDeliveries.lease', ({ db, choices }, p) =>
    db
      .updateTable('service_webhook_deliveries')
      .set({ leased_until: p.leasedUntilMs, leased_by: p.instanceId })
      .where(choices.inList(raw.ref('id'), p.rowIds))
      .where('available_at', '<=', p.nowMs)
      .where((eb) => eb.or([eb('leased_until', '<=', p.nowMs), eb('leased_by', '=', p.instanceId)]))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('service_webhooks as w')
            .select(raw.lit(1).as('one'))
            .whereRef('w.id', '=', 'service_webhook_deliveries.webhook_id')
            .where('w.blocked_until', '<=', p.nowMs),
        ),
      )
      .returning('id'),
  ),
  remove: prepare<ById, never>('webhookDeliveries.remove', ({ db }, p) =>
    db.deleteFrom('service_webhook_deliveries').where('id', '=', p.rowId),
  ),
  reschedule: prepare<ById & { attempts: number; waits: number; availableAtMs: number }, never>(
    'webhookDeliveries.reschedule',
    ({ db }, p) =>
      db
        .updateTable('service_webhook_deliveries')
        .set({ attempts: p.attempts, waits: p.waits, available_at: p.availableAtMs, leased_until: 0, leased_by: null })
        .where('id', '=', p.rowId),
  ),
  kill: prepare<ById & { attempts: number }, never>('webhookDeliveries.kill', ({ db }, p) =>
    db
      .updateTable('service_webhook_deliveries')
      .set({ status: DEAD, attempts: p.attempts, leased_until: 0, leased_by: null })
      .where('id', '=', p.rowId),
  ),
  pruneDead: prepare<{ webhookId: number }, never>('webhookDeliveries.pruneDead', ({ db }, p) =>
    db
      .deleteFrom('service_webhook_deliveries')
      .where('webhook_id', '=', p.webhookId)
      .where('status', '=', DEAD)
      .where('id', '<=', (eb) =>
        eb
          .selectFrom('service_webhook_deliveries')
          .select('id')
          .where('webhook_id', '=', p.webhookId)
          .where('status', '=', DEAD)
          .orderBy('id', 'desc')
          .limit(raw.lit(1))
          .offset(raw.lit(MAX_DEAD_DELIVERIES)),
      ),
  ),
  blockWebhook: prepare<{ webhookId: number; untilMs: number }, never>(
    'webhookDeliveries.blockWebhook',
    ({ db, choices }, p) =>
      db
        .updateTable('service_webhooks')
        .set((update) => ({ blocked_until: choices.greater(update.ref('blocked_until'), p.untilMs) }))
        .where('id', '=', p.webhookId),
  ),
  counts: prepare<{ webhookId: number }, { pending: number; dead: number }>('webhookDeliveries.counts', ({ db }, p) =>
    db
      .selectFrom('service_webhook_deliveries')
      .select([
        raw<number>`count(CASE WHEN status = ${PENDING} THEN 1 END)`.as('pending'),
        raw<number>`count(CASE WHEN status = ${DEAD} THEN 1 END)`.as('dead'),
      ])
      .where('webhook_id', '=', p.webhookId),
  ),
};

const q = DELIVERY_STATEMENTS;

/**
 * The durable webhook queue: one row per (event, endpoint) until it is delivered, in insertion
 * order, shared by every instance of the service. `queueHeads` leases the due heads it returns to
 * this instance; a head leased by another instance comes back not due (at its lease's end), so the
 * dispatcher leaves it alone. A lease ends with the recorded answer, or runs out when its instance
 * stopped mid-request, and the delivery is sent again with the same id.
 */
export class DeliveryStore implements DeliveryStorePort {
  constructor(
    private readonly sql: SqlContext,
    private readonly leases: DeliveryLeases,
  ) {}

  async enqueue(delivery: NewDelivery): Promise<void> {
    await q.insert.run(this.sql, delivery);
  }

  whenStored(callback: () => void): void {
    if (this.sql.whenEnded) this.sql.whenEnded(callback);
    else callback();
  }

  /** The oldest pending delivery of each enabled endpoint, oldest first; the due ones leased to this instance. */
  async queueHeads(limit: number): Promise<QueueHead[]> {
    const { instanceId, leaseMs } = this.leases;
    const nowMs = this.leases.nowMs();
    const heads = await q.heads.all(this.sql, { limit });
    const isDue = (head: QueueHead) => head.availableAtMs <= nowMs && head.blockedUntilMs <= nowMs;
    const free = heads.filter((head) => isDue(head) && (head.leasedUntilMs <= nowMs || head.leasedBy === instanceId));
    const lease = { rowIds: free.map((head) => head.rowId), nowMs, leasedUntilMs: nowMs + leaseMs, instanceId };
    const leased = new Set(free.length === 0 ? [] : (await q.lease.all(this.sql, lease)).map((row) => row.id));
    return heads.map(({ leasedUntilMs, leasedBy: _, ...head }) => ({
      ...head,
      // A due head leased by another instance is not due before that lease ends.
      availableAtMs:
        leased.has(head.rowId) || !isDue(head) ? head.availableAtMs : Math.max(leasedUntilMs, nowMs + RECHECK_MS),
    }));
  }

  async queueCounts(webhookId: number): Promise<{ pending: number; dead: number }> {
    const row = await q.counts.first(this.sql, { webhookId });
    return { pending: row?.pending ?? 0, dead: row?.dead ?? 0 };
  }

  recordAttempt(
    head: QueueHead,
    step: DeliveryStep,
    blockedUntilMs: number | undefined,
    entry: LogEntry,
  ): Promise<void> {
    return inTransaction(this.sql, async (sql) => {
      const rowId = head.rowId;
      if (step.action === 'delivered') await q.remove.run(sql, { rowId });
      else if (step.action === 'retry') await q.reschedule.run(sql, { rowId, ...step });
      else {
        await q.kill.run(sql, { rowId, attempts: step.attempts });
        await q.pruneDead.run(sql, { webhookId: head.webhookId });
      }
      if (blockedUntilMs !== undefined)
        await q.blockWebhook.run(sql, { webhookId: head.webhookId, untilMs: blockedUntilMs });
      await new WebhookLog(sql).add(entry);
    });
  }

  async block(webhookId: number, untilMs: number): Promise<void> {
    await q.blockWebhook.run(this.sql, { webhookId, untilMs });
  }
}
