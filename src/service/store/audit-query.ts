import type { Db } from '../../db/open-db.js';
import { type AuditRecord, type AuditRow, toAuditRecord } from './audit-log.js';

export interface AuditFilter {
  /** Exactly this actor (a username, an issuer name, `admin token`). */
  actor?: string;
  /** The area of the action, the part before the dot: `punishment`, `ticket`, `appeal`... */
  area?: string;
}

/** The statements of {@link AuditQueryStore}; test/service/query-plans.test.ts checks each one's plan. */
export const AUDIT_QUERY_SQL = {
  page: `SELECT * FROM service_audit_log WHERE network_id = @networkId AND id < @beforeId
    AND (@actor IS NULL OR actor = @actor) AND (@area IS NULL OR substr(action, 1, length(@area) + 1) = @area || '.')
    ORDER BY id DESC LIMIT @limit`,
} as const;

/** The audit page's reads: newest first by keyset on the entry id, filtered by actor and area. */
export class AuditQueryStore {
  private readonly pageStatement;

  constructor(db: Db) {
    this.pageStatement = db.prepare<
      { networkId: number; beforeId: number; actor: string | null; area: string | null; limit: number },
      AuditRow
    >(AUDIT_QUERY_SQL.page);
  }

  /** Up to `limit` entries older than `beforeId`, newest first. */
  page(networkId: number, filter: AuditFilter, beforeId: number, limit: number): AuditRecord[] {
    const rows = this.pageStatement.all({
      networkId,
      beforeId,
      actor: filter.actor ?? null,
      area: filter.area ?? null,
      limit,
    });
    return rows.map(toAuditRecord);
  }
}
