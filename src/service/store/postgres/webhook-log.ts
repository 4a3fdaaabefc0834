import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { type LogEntry, MAX_LOG_ENTRIES } from '../../webhooks/webhook-log.js';

/** The statements of {@link PgWebhookLog}. */
export const PG_WEBHOOK_LOG_SQL = pgStatements('webhookLog', {
  // An endpoint deleted while its request was in flight keeps no log.
  insert: `INSERT INTO service_webhook_log (webhook_id, delivery_id, event, attempted_at, outcome, status_code, excerpt)
       SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM service_webhooks WHERE id = $1)`,
  prune: `DELETE FROM service_webhook_log WHERE webhook_id = $1 AND id <= (
         SELECT id FROM service_webhook_log WHERE webhook_id = $1 ORDER BY id DESC LIMIT 1 OFFSET ${MAX_LOG_ENTRIES})`,
  newest: `SELECT webhook_id AS "webhookId", delivery_id AS "deliveryId", event, attempted_at AS "attemptedAtMs",
         outcome, status_code AS "statusCode", excerpt
       FROM service_webhook_log WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`,
});

/** The delivery log of each endpoint on PostgreSQL, bounded like the SQLite one. */
export class PgWebhookLog {
  constructor(private readonly db: PgDb) {}

  async add(entry: LogEntry): Promise<void> {
    await this.db.run(PG_WEBHOOK_LOG_SQL.insert, [
      entry.webhookId,
      entry.deliveryId,
      entry.event,
      entry.attemptedAtMs,
      entry.outcome,
      entry.statusCode,
      entry.excerpt,
    ]);
    await this.db.run(PG_WEBHOOK_LOG_SQL.prune, [entry.webhookId]);
  }

  async entries(webhookId: number, limit: number): Promise<LogEntry[]> {
    return this.db.rows<LogEntry>(PG_WEBHOOK_LOG_SQL.newest, [webhookId, limit]);
  }
}
