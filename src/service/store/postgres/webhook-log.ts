import { type LogEntry, MAX_LOG_ENTRIES } from '../../webhooks/webhook-log.js';
import type { Queryable } from './queryable.js';

interface LogRow {
  webhookId: string;
  deliveryId: string;
  event: string;
  attemptedAtMs: string;
  outcome: string;
  statusCode: number | null;
  excerpt: string;
}

/** The statements of {@link PostgresWebhookLog}. */
export const POSTGRES_WEBHOOK_LOG_SQL = {
  // An endpoint deleted while its request was in flight keeps no log.
  insert: `INSERT INTO service_webhook_log (webhook_id, delivery_id, event, attempted_at, outcome, status_code, excerpt)
       SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM service_webhooks WHERE id = $1)`,
  prune: `DELETE FROM service_webhook_log WHERE webhook_id = $1 AND id <= (
         SELECT id FROM service_webhook_log WHERE webhook_id = $1 ORDER BY id DESC LIMIT 1 OFFSET ${MAX_LOG_ENTRIES})`,
  newest: `SELECT webhook_id AS "webhookId", delivery_id AS "deliveryId", event, attempted_at AS "attemptedAtMs",
         outcome, status_code AS "statusCode", excerpt
       FROM service_webhook_log WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`,
} as const;

/** The delivery log of each endpoint in PostgreSQL, bounded like the SQLite one. */
export class PostgresWebhookLog {
  constructor(private readonly db: Queryable) {}

  async add(entry: LogEntry): Promise<void> {
    await this.db.query(POSTGRES_WEBHOOK_LOG_SQL.insert, [
      entry.webhookId,
      entry.deliveryId,
      entry.event,
      entry.attemptedAtMs,
      entry.outcome,
      entry.statusCode,
      entry.excerpt,
    ]);
    await this.db.query(POSTGRES_WEBHOOK_LOG_SQL.prune, [entry.webhookId]);
  }

  async entries(webhookId: number, limit: number): Promise<LogEntry[]> {
    const { rows } = await this.db.query<LogRow>(POSTGRES_WEBHOOK_LOG_SQL.newest, [webhookId, limit]);
    return rows.map((row) => ({ ...row, webhookId: Number(row.webhookId), attemptedAtMs: Number(row.attemptedAtMs) }));
  }
}
