import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { type AuditEntry, type AuditRecord, type AuditRow, toAuditRecord } from '../audit-log.js';

/** The statements of {@link PgAuditLog}. */
export const PG_AUDIT_LOG_SQL = pgStatements('auditLog', {
  insert: `INSERT INTO service_audit_log (network_id, actor, via, action, subject, detail, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  // Keyset pages, newest first: `beforeId` is the smallest id of the page before.
  newest: `SELECT id, network_id, actor, via, action, subject, detail, created_at FROM service_audit_log
    WHERE network_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`,
});

/** Every staff action, through the panel or the API, per network, on PostgreSQL; rows are only ever added. */
export class PgAuditLog {
  constructor(private readonly db: PgDb) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.db.run(PG_AUDIT_LOG_SQL.insert, [
      entry.networkId,
      entry.actor,
      entry.via,
      entry.action,
      entry.subject ?? null,
      entry.detail === undefined ? null : JSON.stringify(entry.detail),
      entry.atMs,
    ]);
  }

  /** Up to `limit` entries of a network, newest first, older than the entry `beforeId` when given. */
  async newest(networkId: number, limit: number, beforeId = Number.MAX_SAFE_INTEGER): Promise<AuditRecord[]> {
    const rows = await this.db.rows<AuditRow>(PG_AUDIT_LOG_SQL.newest, [networkId, beforeId, limit]);
    return rows.map(toAuditRecord);
  }
}
