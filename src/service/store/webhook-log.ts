import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import { type LogEntry, MAX_LOG_ENTRIES, type WebhookLogPort } from './ports/webhook-log.js';

/** The statements of {@link WebhookLog}; the query-plan tests check each one's plan. */
export const WEBHOOK_LOG_STATEMENTS = {
  // An endpoint deleted while its request was in flight keeps no log.
  insert: prepare<LogEntry, never>('webhookLog.insert', ({ db }, p) =>
    db
      .insertInto('service_webhook_log')
      .columns(['webhook_id', 'delivery_id', 'event', 'attempted_at', 'outcome', 'status_code', 'excerpt'])
      .expression(
        db
          .selectNoFrom([
            raw<number>`${p.webhookId}`.as('webhook_id'),
            raw<string>`${p.deliveryId}`.as('delivery_id'),
            raw<string>`${p.event}`.as('event'),
            raw<number>`${p.attemptedAtMs}`.as('attempted_at'),
            raw<string>`${p.outcome}`.as('outcome'),
            raw<number | null>`${p.statusCode}`.as('status_code'),
            raw<string>`${p.excerpt}`.as('excerpt'),
          ])
          .where(({ exists, selectFrom }) =>
            exists(selectFrom('service_webhooks').select(raw.lit(1).as('one')).where('id', '=', p.webhookId)),
          ),
      ),
  ),
  prune: prepare<{ webhookId: number }, never>('webhookLog.prune', ({ db }, p) =>
    db
      .deleteFrom('service_webhook_log')
      .where('webhook_id', '=', p.webhookId)
      .where('id', '<=', (eb) =>
        eb
          .selectFrom('service_webhook_log')
          .select('id')
          .where('webhook_id', '=', p.webhookId)
          .orderBy('id', 'desc')
          .limit(raw.lit(1))
          .offset(raw.lit(MAX_LOG_ENTRIES)),
      ),
  ),
  newest: prepare<{ webhookId: number; limit: number }, LogEntry>('webhookLog.newest', ({ db }, p) =>
    db
      .selectFrom('service_webhook_log')
      .select([
        'webhook_id as webhookId',
        'delivery_id as deliveryId',
        'event',
        'attempted_at as attemptedAtMs',
        'outcome',
        'status_code as statusCode',
        'excerpt',
      ])
      .where('webhook_id', '=', p.webhookId)
      .orderBy('id', 'desc')
      .limit(p.limit),
  ),
};

const q = WEBHOOK_LOG_STATEMENTS;

/** The delivery log of each endpoint, bounded to its newest {@link MAX_LOG_ENTRIES} entries. */
export class WebhookLog implements WebhookLogPort {
  constructor(private readonly sql: SqlContext) {}

  async add(entry: LogEntry): Promise<void> {
    await q.insert.run(this.sql, entry);
    await q.prune.run(this.sql, { webhookId: entry.webhookId });
  }

  entries(webhookId: number, limit: number): Promise<LogEntry[]> {
    return q.newest.all(this.sql, { webhookId, limit });
  }
}
