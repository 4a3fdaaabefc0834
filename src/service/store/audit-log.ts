import { prepare, type SqlContext } from '../db/prepared.js';
import type { AuditEntry, AuditLogPort, AuditRecord } from './ports/audit-log.js';
import { type AuditRow, toAuditRecord } from './ports/audit-log.js';

/** The columns of an audit row (`AuditRow`). */
export const AUDIT_COLUMNS = ['id', 'network_id', 'actor', 'via', 'action', 'subject', 'detail', 'created_at'] as const;

/** The statements of {@link AuditLog}; the query-plan tests check each one's plan. */
export const AUDIT_LOG_STATEMENTS = {
  insert: prepare<Omit<AuditEntry, 'subject' | 'detail'> & { subject: string | null; detail: string | null }, never>(
    'auditLog.insert',
    ({ db }, p) =>
      db.insertInto('service_audit_log').values({
        network_id: p.networkId,
        actor: p.actor,
        via: p.via,
        action: p.action,
        subject: p.subject,
        detail: p.detail,
        created_at: p.atMs,
      }),
  ),
  // Keyset pages, newest first: `beforeId` is the smallest id of the page before.
  newest: prepare<{ networkId: number; beforeId: number; limit: number }, AuditRow>('auditLog.newest', ({ db }, p) =>
    db
      .selectFrom('service_audit_log')
      .select(AUDIT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('id', '<', p.beforeId)
      .orderBy('id', 'desc')
      .limit(p.limit),
  ),
};

const q = AUDIT_LOG_STATEMENTS;

/** Every staff action, through the panel or the API, per network; rows are only ever added. */
export class AuditLog implements AuditLogPort {
  constructor(private readonly sql: SqlContext) {}

  async record(entry: AuditEntry): Promise<void> {
    const detail = entry.detail === undefined ? null : JSON.stringify(entry.detail);
    await q.insert.run(this.sql, { ...entry, subject: entry.subject ?? null, detail });
  }

  /** Up to `limit` entries of a network, newest first, older than the entry `beforeId` when given. */
  async newest(networkId: number, limit: number, beforeId = Number.MAX_SAFE_INTEGER): Promise<AuditRecord[]> {
    return (await q.newest.all(this.sql, { networkId, beforeId, limit })).map(toAuditRecord);
  }
}
