import type { WebhookEventName } from '../../webhooks/events.js';
import type { WebhookConfig, WebhookFormat, WebhookUpdate } from '../../webhooks/webhook-config.js';
import type { Webhook } from '../../webhooks/webhook-store.js';
import type { Queryable } from './queryable.js';

interface WebhookRow {
  id: string;
  network_id: string;
  network_name: string;
  name: string;
  url: string;
  events: string;
  format: WebhookFormat;
  templates: string;
  max_attempts: number;
  enabled: number;
  blocked_until: string;
}

const WEBHOOK_COLUMNS = 'w.*, n.name AS network_name';

/** The statements of {@link PostgresWebhookStore}. */
export const POSTGRES_WEBHOOK_SQL = {
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
} as const;

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: Number(row.id),
    networkId: Number(row.network_id),
    networkName: row.network_name,
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventName[],
    format: row.format,
    templates: JSON.parse(row.templates) as Webhook['templates'],
    maxAttempts: row.max_attempts,
    enabled: row.enabled === 1,
    blockedUntilMs: Number(row.blocked_until),
  };
}

/** Columns after the id/network, in the order of the insert and update statements. */
function columns(config: Omit<WebhookConfig, 'enabled'> & { enabled: boolean }) {
  return [
    config.name,
    config.url,
    JSON.stringify(config.events),
    config.format,
    JSON.stringify(config.templates),
    config.maxAttempts,
    config.enabled ? 1 : 0,
  ];
}

/** The endpoints of each network, in PostgreSQL. */
export class PostgresWebhookStore {
  constructor(private readonly db: Queryable) {}

  async create(networkId: number, config: WebhookConfig, nowMs: number): Promise<number> {
    const { rows } = await this.db.query<{ id: string }>(POSTGRES_WEBHOOK_SQL.insertWebhook, [
      networkId,
      ...columns(config),
      nowMs,
    ]);
    return Number(rows[0]!.id);
  }

  async upsertByName(networkId: number, config: WebhookConfig, nowMs: number): Promise<number> {
    const existing = await this.idNamed(networkId, config.name);
    if (existing === undefined) return this.create(networkId, config, nowMs);
    await this.db.query(POSTGRES_WEBHOOK_SQL.updateWebhook, [existing, ...columns(config)]);
    return existing;
  }

  async update(networkId: number, id: number, update: WebhookUpdate): Promise<boolean> {
    const current = await this.find(networkId, id);
    if (!current) return false;
    await this.db.query(POSTGRES_WEBHOOK_SQL.updateWebhook, [id, ...columns({ ...current, ...update })]);
    return true;
  }

  async remove(networkId: number, id: number): Promise<boolean> {
    const result = await this.db.query(POSTGRES_WEBHOOK_SQL.deleteWebhook, [networkId, id]);
    return (result.rowCount ?? 0) > 0;
  }

  async find(networkId: number, id: number): Promise<Webhook | undefined> {
    const { rows } = await this.db.query<WebhookRow>(POSTGRES_WEBHOOK_SQL.byId, [networkId, id]);
    return rows[0] && toWebhook(rows[0]);
  }

  async isNameTaken(networkId: number, name: string, exceptId?: number): Promise<boolean> {
    const id = await this.idNamed(networkId, name);
    return id !== undefined && id !== exceptId;
  }

  async list(networkId: number): Promise<Webhook[]> {
    const { rows } = await this.db.query<WebhookRow>(POSTGRES_WEBHOOK_SQL.byNetwork, [networkId]);
    return rows.map(toWebhook);
  }

  private async idNamed(networkId: number, name: string): Promise<number | undefined> {
    const { rows } = await this.db.query<{ id: string }>(POSTGRES_WEBHOOK_SQL.byName, [networkId, name]);
    return rows[0] && Number(rows[0].id);
  }
}
