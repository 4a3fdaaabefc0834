import { isSqlTrue, type SqlBoolean } from '../store/sql-boolean.js';
import type { WebhookEventName } from './events.js';
import type { EmbedTemplate, WebhookFormat } from './webhook-config.js';

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

/** A row of `service_webhooks` joined to its network's name ({@link WEBHOOK_COLUMNS}), as both databases return it. */
export interface WebhookRow {
  id: number;
  network_id: number;
  network_name: string;
  name: string;
  url: string;
  events: string;
  format: WebhookFormat;
  templates: string;
  max_attempts: number;
  enabled: SqlBoolean;
  blocked_until: number;
}

/** What the endpoint queries select from `service_webhooks w JOIN service_networks n`. */
export const WEBHOOK_COLUMNS = 'w.*, n.name AS network_name';

export function toWebhook(row: WebhookRow): Webhook {
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
    enabled: isSqlTrue(row.enabled),
    blockedUntilMs: row.blocked_until,
  };
}
