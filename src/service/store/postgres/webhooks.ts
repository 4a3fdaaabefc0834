import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { WebhookConfig, WebhookUpdate } from '../../webhooks/webhook-config.js';
import { toWebhook, WEBHOOK_COLUMNS, type Webhook, type WebhookRow } from '../../webhooks/webhook-rows.js';

/** The statements of {@link PgWebhookStore}. */
export const PG_WEBHOOK_SQL = pgStatements('webhooks', {
  insertWebhook: `INSERT INTO service_webhooks (network_id, name, url, events, format, templates, max_attempts, enabled,
         created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
  updateWebhook: `UPDATE service_webhooks SET name = $2, url = $3, events = $4, format = $5, templates = $6,
         max_attempts = $7, enabled = $8 WHERE id = $1`,
  deleteWebhook: 'DELETE FROM service_webhooks WHERE network_id = $1 AND id = $2',
  byId: `SELECT ${WEBHOOK_COLUMNS} FROM service_webhooks w JOIN service_networks n ON n.id = w.network_id
       WHERE w.network_id = $1 AND w.id = $2`,
  byName: 'SELECT id FROM service_webhooks WHERE network_id = $1 AND name = $2',
  byNetwork: `SELECT ${WEBHOOK_COLUMNS} FROM service_webhooks w JOIN service_networks n ON n.id = w.network_id
       WHERE w.network_id = $1 ORDER BY w.id`,
  pendingDeliveries: `SELECT coalesce(sum((SELECT count(*) FROM service_webhook_deliveries d
         WHERE d.webhook_id = w.id AND d.status = 'pending')), 0)::bigint AS pending FROM service_webhooks w`,
});

/** Columns after the id/network, in the order of the insert and update statements. */
function columns(config: Omit<WebhookConfig, 'enabled'> & { enabled: boolean }) {
  return [
    config.name,
    config.url,
    JSON.stringify(config.events),
    config.format,
    JSON.stringify(config.templates),
    config.maxAttempts,
    config.enabled,
  ];
}

/** The endpoints of each network, on PostgreSQL. */
export class PgWebhookStore {
  constructor(private readonly db: PgDb) {}

  /** Deliveries pending, for every endpoint of every network. */
  async pendingDeliveries(): Promise<number> {
    return (await this.db.row<{ pending: number }>(PG_WEBHOOK_SQL.pendingDeliveries))?.pending ?? 0;
  }

  async create(networkId: number, config: WebhookConfig, nowMs: number): Promise<number> {
    const row = await this.db.row<{ id: number }>(PG_WEBHOOK_SQL.insertWebhook, [networkId, ...columns(config), nowMs]);
    return row!.id;
  }

  async upsertByName(networkId: number, config: WebhookConfig, nowMs: number): Promise<number> {
    const existing = await this.idNamed(networkId, config.name);
    if (existing === undefined) return this.create(networkId, config, nowMs);
    await this.db.run(PG_WEBHOOK_SQL.updateWebhook, [existing, ...columns(config)]);
    return existing;
  }

  async update(networkId: number, id: number, update: WebhookUpdate): Promise<boolean> {
    const current = await this.find(networkId, id);
    if (!current) return false;
    await this.db.run(PG_WEBHOOK_SQL.updateWebhook, [id, ...columns({ ...current, ...update })]);
    return true;
  }

  async remove(networkId: number, id: number): Promise<boolean> {
    return (await this.db.run(PG_WEBHOOK_SQL.deleteWebhook, [networkId, id])) > 0;
  }

  async find(networkId: number, id: number): Promise<Webhook | undefined> {
    const row = await this.db.row<WebhookRow>(PG_WEBHOOK_SQL.byId, [networkId, id]);
    return row && toWebhook(row);
  }

  async isNameTaken(networkId: number, name: string, exceptId?: number): Promise<boolean> {
    const id = await this.idNamed(networkId, name);
    return id !== undefined && id !== exceptId;
  }

  async list(networkId: number): Promise<Webhook[]> {
    return (await this.db.rows<WebhookRow>(PG_WEBHOOK_SQL.byNetwork, [networkId])).map(toWebhook);
  }

  private async idNamed(networkId: number, name: string): Promise<number | undefined> {
    return (await this.db.row<{ id: number }>(PG_WEBHOOK_SQL.byName, [networkId, name]))?.id;
  }
}
