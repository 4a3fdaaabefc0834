import type { Db } from '../../db/open-db.js';

/** Newest delivery log entries kept per endpoint. */
export const MAX_LOG_ENTRIES = 500;

/** One try of a delivery (or a test-send) as the log keeps it. */
export interface LogEntry {
  webhookId: number;
  deliveryId: string;
  event: string;
  attemptedAtMs: number;
  outcome: string;
  statusCode: number | null;
  excerpt: string;
}

/** The statements of {@link WebhookLog}; test/service/query-plans.test.ts checks each one's plan. */
export const WEBHOOK_LOG_SQL = {
  // An endpoint deleted while its request was in flight keeps no log.
  insert: `INSERT INTO service_webhook_log (webhook_id, delivery_id, event, attempted_at, outcome, status_code, excerpt)
       SELECT @webhookId, @deliveryId, @event, @attemptedAtMs, @outcome, @statusCode, @excerpt
       WHERE EXISTS (SELECT 1 FROM service_webhooks WHERE id = @webhookId)`,
  prune: `DELETE FROM service_webhook_log WHERE webhook_id = @webhookId AND id <= (
         SELECT id FROM service_webhook_log WHERE webhook_id = @webhookId ORDER BY id DESC LIMIT 1 OFFSET ${MAX_LOG_ENTRIES})`,
  newest: `SELECT id, webhook_id AS webhookId, delivery_id AS deliveryId, event, attempted_at AS attemptedAtMs, outcome,
         status_code AS statusCode, excerpt
       FROM service_webhook_log WHERE webhook_id = ? ORDER BY id DESC LIMIT ?`,
} as const;

/** The delivery log of each endpoint, bounded to its newest {@link MAX_LOG_ENTRIES} entries. */
export class WebhookLog {
  private readonly insert;
  private readonly prune;
  private readonly newest;

  constructor(db: Db) {
    this.insert = db.prepare(WEBHOOK_LOG_SQL.insert);
    this.prune = db.prepare(WEBHOOK_LOG_SQL.prune);
    this.newest = db.prepare<[number, number], LogEntry & { id: number }>(WEBHOOK_LOG_SQL.newest);
  }

  add(entry: LogEntry): void {
    this.insert.run(entry);
    this.prune.run({ webhookId: entry.webhookId });
  }

  /** The newest `limit` entries, newest first. */
  entries(webhookId: number, limit: number): LogEntry[] {
    return this.newest.all(webhookId, limit).map(({ id: _id, ...entry }) => entry);
  }
}
