import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { type AuditRecord, type AuditRow, toAuditRecord } from '../audit-log.js';
import type { AuditFilter } from '../audit-query.js';

/** The statements of {@link PgAuditQueryStore}. */
export const PG_AUDIT_QUERY_SQL = pgStatements('auditQuery', {
  page: `SELECT id, network_id, actor, via, action, subject, detail, created_at FROM service_audit_log
    WHERE network_id = $1 AND id < $2
      AND ($3::text IS NULL OR actor = $3) AND ($4::text IS NULL OR substr(action, 1, length($4) + 1) = $4 || '.')
    ORDER BY id DESC LIMIT $5`,
});

/** The audit page's reads on PostgreSQL: newest first by keyset on the entry id, filtered by actor and area. */
export class PgAuditQueryStore {
  constructor(private readonly db: PgDb) {}

  /** Up to `limit` entries older than `beforeId`, newest first. */
  async page(networkId: number, filter: AuditFilter, beforeId: number, limit: number): Promise<AuditRecord[]> {
    const values = [networkId, beforeId, filter.actor ?? null, filter.area ?? null, limit];
    const rows = await this.db.rows<AuditRow>(PG_AUDIT_QUERY_SQL.page, values);
    return rows.map(toAuditRecord);
  }
}
