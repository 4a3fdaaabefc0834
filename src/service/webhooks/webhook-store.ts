import type { Db } from '../../db/open-db.js';
import type { WebhookEventName } from './events.js';
import type { EmbedTemplate, WebhookConfig, WebhookFormat, WebhookUpdate } from './webhook-config.js';

/** Newest delivery log entries kept per endpoint. */
export const MAX_LOG_ENTRIES = 500;
/** Newest dead deliveries kept per endpoint. */
export const MAX_DEAD_DELIVERIES = 500;

interface WebhookRow {
  id: number;
  network_id: number;
  network_name: string;
  name: string;
  url: string;
  events: string;
  format: WebhookFormat;
  templates: string;
  max_attempts: number;
  enabled: number;
  blocked_until: number;
  created_at: number;
}

/** An endpoint as stored, URL in clear: never hand it to a log or an answer as is. */
export interface Webhook {
  id: number;
  networkId: number;
  networkName: string;
  name: string;
  url: string;
  events: WebhookEventName[];
  format: WebhookFormat;
  templates: Partial<Record<WebhookEventName, EmbedTemplate>>;
  maxAttempts: number;
  enabled: boolean;
  blockedUntilMs: number;
}

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

export interface LogEntry {
  webhookId: number;
  deliveryId: string;
  event: string;
  attemptedAtMs: number;
  outcome: string;
  statusCode: number | null;
  excerpt: string;
}

const WEBHOOK_COLUMNS = 'w.*, n.name AS network_name';

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    networkId: row.network_id,
    networkName: row.network_name,
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventName[],
    format: row.format,
    templates: JSON.parse(row.templates) as Webhook['templates'],
    maxAttempts: row.max_attempts,
    enabled: row.enabled === 1,
    blockedUntilMs: row.blocked_until,
  };
}

/** Endpoints, their queue of deliveries and their delivery log. */
export class WebhookStore {
  private readonly insertWebhook;
  private readonly updateWebhook;
  private readonly deleteWebhook;
  private readonly byId;
  private readonly byName;
  private readonly byNetwork;
  private readonly insertDelivery;
  private readonly heads;
  private readonly deleteDelivery;
  private readonly rescheduleDelivery;
  private readonly killDelivery;
  private readonly pruneDead;
  private readonly blockWebhook;
  private readonly insertLog;
  private readonly pruneLog;
  private readonly logOf;
  private readonly counts;

  constructor(private readonly db: Db) {
    this.insertWebhook = db.prepare(
      `INSERT INTO service_webhooks (network_id, name, url, events, format, templates, max_attempts, enabled, created_at)
       VALUES (@networkId, @name, @url, @events, @format, @templates, @maxAttempts, @enabled, @createdAt)`,
    );
    this.updateWebhook = db.prepare(
      `UPDATE service_webhooks SET name = @name, url = @url, events = @events, format = @format, templates = @templates,
         max_attempts = @maxAttempts, enabled = @enabled WHERE id = @id`,
    );
    this.deleteWebhook = db.prepare('DELETE FROM service_webhooks WHERE network_id = ? AND id = ?');
    this.byId = db.prepare<[number, number], WebhookRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM service_webhooks w JOIN service_networks n ON n.id = w.network_id
       WHERE w.network_id = ? AND w.id = ?`,
    );
    this.byName = db.prepare<[number, string], { id: number }>(
      'SELECT id FROM service_webhooks WHERE network_id = ? AND name = ?',
    );
    this.byNetwork = db.prepare<[number], WebhookRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM service_webhooks w JOIN service_networks n ON n.id = w.network_id
       WHERE w.network_id = ? ORDER BY w.id`,
    );
    this.insertDelivery = db.prepare(
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
    this.deleteDelivery = db.prepare('DELETE FROM service_webhook_deliveries WHERE id = ?');
    this.rescheduleDelivery = db.prepare(
      'UPDATE service_webhook_deliveries SET attempts = @attempts, waits = @waits, available_at = @availableAtMs WHERE id = @rowId',
    );
    this.killDelivery = db.prepare(
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
    this.insertLog = db.prepare(
      // An endpoint deleted while its request was in flight keeps no log.
      `INSERT INTO service_webhook_log (webhook_id, delivery_id, event, attempted_at, outcome, status_code, excerpt)
       SELECT @webhookId, @deliveryId, @event, @attemptedAtMs, @outcome, @statusCode, @excerpt
       WHERE EXISTS (SELECT 1 FROM service_webhooks WHERE id = @webhookId)`,
    );
    this.pruneLog = db.prepare(
      `DELETE FROM service_webhook_log WHERE webhook_id = @webhookId AND id <= (
         SELECT id FROM service_webhook_log WHERE webhook_id = @webhookId ORDER BY id DESC LIMIT 1 OFFSET ${MAX_LOG_ENTRIES})`,
    );
    this.logOf = db.prepare<[number, number], LogEntry & { id: number }>(
      `SELECT id, webhook_id AS webhookId, delivery_id AS deliveryId, event, attempted_at AS attemptedAtMs, outcome,
         status_code AS statusCode, excerpt
       FROM service_webhook_log WHERE webhook_id = ? ORDER BY id DESC LIMIT ?`,
    );
    this.counts = db.prepare<[number], { pending: number; dead: number }>(
      `SELECT coalesce(sum(status = 'pending'), 0) AS pending, coalesce(sum(status = 'dead'), 0) AS dead
       FROM service_webhook_deliveries WHERE webhook_id = ?`,
    );
  }

  create(networkId: number, config: WebhookConfig, nowMs: number): number {
    const result = this.insertWebhook.run({ networkId, ...this.columns(config), createdAt: nowMs });
    return Number(result.lastInsertRowid);
  }

  /** Creates or replaces the network's endpoint of that name (the seed); pending deliveries stay. */
  upsertByName(networkId: number, config: WebhookConfig, nowMs: number): number {
    const existing = this.byName.get(networkId, config.name);
    if (!existing) return this.create(networkId, config, nowMs);
    this.updateWebhook.run({ id: existing.id, ...this.columns(config) });
    return existing.id;
  }

  /** Applies the given fields; false when the network has no such endpoint. */
  update(networkId: number, id: number, update: WebhookUpdate): boolean {
    const current = this.find(networkId, id);
    if (!current) return false;
    this.updateWebhook.run({ id, ...this.columns({ ...current, ...update }) });
    return true;
  }

  /** Deletes the endpoint with its queue and log. */
  remove(networkId: number, id: number): boolean {
    return this.deleteWebhook.run(networkId, id).changes > 0;
  }

  find(networkId: number, id: number): Webhook | undefined {
    const row = this.byId.get(networkId, id);
    return row && toWebhook(row);
  }

  isNameTaken(networkId: number, name: string, exceptId?: number): boolean {
    const row = this.byName.get(networkId, name);
    return row !== undefined && row.id !== exceptId;
  }

  list(networkId: number): Webhook[] {
    return this.byNetwork.all(networkId).map(toWebhook);
  }

  queueCounts(webhookId: number): { pending: number; dead: number } {
    return this.counts.get(webhookId) ?? { pending: 0, dead: 0 };
  }

  enqueue(delivery: { webhookId: number; deliveryId: string; event: string; body: string; nowMs: number }): void {
    this.insertDelivery.run(delivery);
  }

  /** The oldest pending delivery of each enabled endpoint, oldest first. */
  queueHeads(limit: number): QueueHead[] {
    return this.heads.all(limit);
  }

  /** One answered attempt: the delivery's new state, the endpoint's retry window and the log entry, together. */
  recordAttempt(
    head: QueueHead,
    step:
      | { action: 'delivered' }
      | { action: 'retry'; attempts: number; waits: number; availableAtMs: number }
      | { action: 'dead'; attempts: number },
    blockedUntilMs: number | undefined,
    entry: LogEntry,
  ): void {
    this.db.transaction(() => {
      if (step.action === 'delivered') this.deleteDelivery.run(head.rowId);
      else if (step.action === 'retry') {
        const { attempts, waits, availableAtMs } = step;
        this.rescheduleDelivery.run({ rowId: head.rowId, attempts, waits, availableAtMs });
      } else {
        this.killDelivery.run({ rowId: head.rowId, attempts: step.attempts });
        this.pruneDead.run({ webhookId: head.webhookId });
      }
      if (blockedUntilMs !== undefined) this.blockWebhook.run({ webhookId: head.webhookId, untilMs: blockedUntilMs });
      this.log(entry);
    })();
  }

  /** Records the endpoint's retry window (a test-send's 429). */
  block(webhookId: number, untilMs: number): void {
    this.blockWebhook.run({ webhookId, untilMs });
  }

  log(entry: LogEntry): void {
    this.insertLog.run(entry);
    this.pruneLog.run({ webhookId: entry.webhookId });
  }

  /** The newest `limit` log entries, newest first. */
  logEntries(webhookId: number, limit: number): LogEntry[] {
    return this.logOf.all(webhookId, limit).map(({ id: _id, ...entry }) => entry);
  }

  private columns(config: Omit<WebhookConfig, 'enabled'> & { enabled: boolean }) {
    return {
      name: config.name,
      url: config.url,
      events: JSON.stringify(config.events),
      format: config.format,
      templates: JSON.stringify(config.templates),
      maxAttempts: config.maxAttempts,
      enabled: config.enabled ? 1 : 0,
    };
  }
}
