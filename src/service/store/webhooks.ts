import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { WebhookConfig, WebhookUpdate } from '../webhooks/webhook-config.js';
import { toWebhook, type Webhook, type WebhookRow } from '../webhooks/webhook-rows.js';
import type { WebhookStorePort } from './ports/webhooks.js';

type Columns = {
  name: string;
  url: string;
  events: string;
  format: string;
  templates: string;
  maxAttempts: number;
  enabled: boolean;
};
type Endpoint = { networkId: number; id: number };

const WEBHOOK_COLUMNS = [
  'w.id',
  'w.network_id',
  'n.name as network_name',
  'w.name',
  'w.url',
  'w.events',
  'w.format',
  'w.templates',
  'w.max_attempts',
  'w.enabled',
  'w.blocked_until',
] as const;

/** The statements of {@link WebhookStore}; the query-plan tests check each one's plan. */
export const WEBHOOK_STATEMENTS = {
  insertWebhook: prepare<Columns & { networkId: number; createdAt: number }, { id: number }>(
    'webhooks.insertWebhook',
    ({ db }, p) =>
      db
        .insertInto('service_webhooks')
        .values({
          network_id: p.networkId,
          name: p.name,
          url: p.url,
          events: p.events,
          format: p.format,
          templates: p.templates,
          max_attempts: p.maxAttempts,
          enabled: p.enabled,
          created_at: p.createdAt,
        })
        .returning('id'),
  ),
  updateWebhook: prepare<Columns & { id: number }, never>('webhooks.updateWebhook', ({ db }, p) =>
    db
      .updateTable('service_webhooks')
      .set({
        name: p.name,
        url: p.url,
        events: p.events,
        format: p.format,
        templates: p.templates,
        max_attempts: p.maxAttempts,
        enabled: p.enabled,
      })
      .where('id', '=', p.id),
  ),
  deleteWebhook: prepare<Endpoint, never>('webhooks.deleteWebhook', ({ db }, p) =>
    db.deleteFrom('service_webhooks').where('network_id', '=', p.networkId).where('id', '=', p.id),
  ),
  byId: prepare<Endpoint, WebhookRow>('webhooks.byId', ({ db }, p) =>
    db
      .selectFrom('service_webhooks as w')
      .innerJoin('service_networks as n', 'n.id', 'w.network_id')
      .select(WEBHOOK_COLUMNS)
      .where('w.network_id', '=', p.networkId)
      .where('w.id', '=', p.id)
      .$castTo<WebhookRow>(),
  ),
  byName: prepare<{ networkId: number; name: string }, { id: number }>('webhooks.byName', ({ db }, p) =>
    db.selectFrom('service_webhooks').select('id').where('network_id', '=', p.networkId).where('name', '=', p.name),
  ),
  byNetwork: prepare<{ networkId: number }, WebhookRow>('webhooks.byNetwork', ({ db }, p) =>
    db
      .selectFrom('service_webhooks as w')
      .innerJoin('service_networks as n', 'n.id', 'w.network_id')
      .select(WEBHOOK_COLUMNS)
      .where('w.network_id', '=', p.networkId)
      .orderBy('w.id')
      .$castTo<WebhookRow>(),
  ),
  // Endpoint by endpoint, each through the queue index (the metrics' queue depth).
  pendingDeliveries: prepare<Record<string, never>, { pending: number }>('webhooks.pendingDeliveries', ({ db }) =>
    db.selectFrom('service_webhooks as w').select((eb) =>
      eb.fn
        .coalesce(
          eb.fn.sum(
            eb
              .selectFrom('service_webhook_deliveries as d')
              .select((inner) => inner.fn.countAll().as('n'))
              .whereRef('d.webhook_id', '=', 'w.id')
              .where('d.status', '=', raw.lit('pending')),
          ),
          raw.lit(0),
        )
        .as('pending'),
    ),
  ),
};

const q = WEBHOOK_STATEMENTS;

/** Columns as the insert and update statements take them. */
function columns(config: Omit<WebhookConfig, 'enabled'> & { enabled: boolean }): Columns {
  return {
    name: config.name,
    url: config.url,
    events: JSON.stringify(config.events),
    format: config.format,
    templates: JSON.stringify(config.templates),
    maxAttempts: config.maxAttempts,
    enabled: config.enabled,
  };
}

/** The endpoints of each network. */
export class WebhookStore implements WebhookStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** Deliveries pending, for every endpoint of every network. */
  async pendingDeliveries(): Promise<number> {
    return Number((await q.pendingDeliveries.first(this.sql, {}))?.pending ?? 0);
  }

  async create(networkId: number, config: WebhookConfig, nowMs: number): Promise<number> {
    return Number((await q.insertWebhook.first(this.sql, { networkId, ...columns(config), createdAt: nowMs }))!.id);
  }

  /** Creates or replaces the network's endpoint of that name (the seed); pending deliveries stay. */
  async upsertByName(networkId: number, config: WebhookConfig, nowMs: number): Promise<number> {
    const existing = await this.idNamed(networkId, config.name);
    if (existing === undefined) return this.create(networkId, config, nowMs);
    await q.updateWebhook.run(this.sql, { id: existing, ...columns(config) });
    return existing;
  }

  /** Applies the given fields; false when the network has no such endpoint. */
  async update(networkId: number, id: number, update: WebhookUpdate): Promise<boolean> {
    const current = await this.find(networkId, id);
    if (!current) return false;
    await q.updateWebhook.run(this.sql, { id, ...columns({ ...current, ...update }) });
    return true;
  }

  /** Deletes the endpoint with its queue and log. */
  async remove(networkId: number, id: number): Promise<boolean> {
    return (await q.deleteWebhook.run(this.sql, { networkId, id })) > 0;
  }

  async find(networkId: number, id: number): Promise<Webhook | undefined> {
    const row = await q.byId.first(this.sql, { networkId, id });
    return row && toWebhook(row);
  }

  async isNameTaken(networkId: number, name: string, exceptId?: number): Promise<boolean> {
    const id = await this.idNamed(networkId, name);
    return id !== undefined && id !== exceptId;
  }

  async list(networkId: number): Promise<Webhook[]> {
    return (await q.byNetwork.all(this.sql, { networkId })).map(toWebhook);
  }

  private async idNamed(networkId: number, name: string): Promise<number | undefined> {
    return (await q.byName.first(this.sql, { networkId, name }))?.id;
  }
}
