import type { Db } from '../../db/open-db.js';
import type { WebhookConfig, WebhookUpdate } from './webhook-config.js';
import { toWebhook, WEBHOOK_COLUMNS, type Webhook, type WebhookRow } from './webhook-rows.js';

/** The statements of {@link WebhookStore}; test/service/query-plans.test.ts checks each one's plan. */
export const WEBHOOK_SQL = {
  insertWebhook: `INSERT INTO service_webhooks (network_id, name, url, events, format, templates, max_attempts, enabled, created_at)
       VALUES (@networkId, @name, @url, @events, @format, @templates, @maxAttempts, @enabled, @createdAt)`,
  updateWebhook: `UPDATE service_webhooks SET name = @name, url = @url, events = @events, format = @format, templates = @templates,
         max_attempts = @maxAttempts, enabled = @enabled WHERE id = @id`,
  deleteWebhook: 'DELETE FROM service_webhooks WHERE network_id = ? AND id = ?',
  byId: `SELECT ${WEBHOOK_COLUMNS} FROM service_webhooks w JOIN service_networks n ON n.id = w.network_id
       WHERE w.network_id = ? AND w.id = ?`,
  byName: 'SELECT id FROM service_webhooks WHERE network_id = ? AND name = ?',
  byNetwork: `SELECT ${WEBHOOK_COLUMNS} FROM service_webhooks w JOIN service_networks n ON n.id = w.network_id
       WHERE w.network_id = ? ORDER BY w.id`,
  // Endpoint by endpoint, each through the queue index (the metrics' queue depth).
  pendingDeliveries: `SELECT coalesce(sum((SELECT count(*) FROM service_webhook_deliveries d
         WHERE d.webhook_id = w.id AND d.status = 'pending')), 0) AS pending FROM service_webhooks w`,
} as const;

/** The endpoints of each network. */
export class WebhookStore {
  private readonly insertWebhook;
  private readonly updateWebhook;
  private readonly deleteWebhook;
  private readonly byId;
  private readonly byName;
  private readonly byNetwork;
  private readonly pendingDeliveriesStatement;

  constructor(db: Db) {
    this.insertWebhook = db.prepare(WEBHOOK_SQL.insertWebhook);
    this.updateWebhook = db.prepare(WEBHOOK_SQL.updateWebhook);
    this.deleteWebhook = db.prepare(WEBHOOK_SQL.deleteWebhook);
    this.byId = db.prepare<[number, number], WebhookRow>(WEBHOOK_SQL.byId);
    this.byName = db.prepare<[number, string], { id: number }>(WEBHOOK_SQL.byName);
    this.byNetwork = db.prepare<[number], WebhookRow>(WEBHOOK_SQL.byNetwork);
    this.pendingDeliveriesStatement = db.prepare<[], { pending: number }>(WEBHOOK_SQL.pendingDeliveries);
  }

  /** Deliveries pending, for every endpoint of every network. */
  pendingDeliveries(): number {
    return this.pendingDeliveriesStatement.get()?.pending ?? 0;
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
