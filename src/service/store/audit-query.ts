import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import { AUDIT_COLUMNS } from './audit-log.js';
import type { AuditRecord } from './ports/audit-log.js';
import { type AuditRow, toAuditRecord } from './ports/audit-log.js';
import type { AuditFilter, AuditQueryStorePort } from './ports/audit-query.js';

type PageValues = { networkId: number; beforeId: number; actor: string | null; area: string | null; limit: number };

/** The statements of {@link AuditQueryStore}; the query-plan tests check each one's plan. */
export const AUDIT_QUERY_STATEMENTS = {
  // A filter left out is null; typed, so PostgreSQL knows what a null parameter is.
  page: prepare<PageValues, AuditRow>('auditQuery.page', ({ db }, p) => {
    const actor = raw<string | null>`CAST(${p.actor} AS text)`;
    const area = raw<string | null>`CAST(${p.area} AS text)`;
    return db
      .selectFrom('service_audit_log')
      .select(AUDIT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('id', '<', p.beforeId)
      .where((eb) => eb.or([eb(actor, 'is', null), eb('actor', '=', actor)]))
      .where((eb) =>
        eb.or([eb(area, 'is', null), eb(raw`substr(action, 1, length(${area}) + 1)`, '=', raw`${area} || '.'`)]),
      )
      .orderBy('id', 'desc')
      .limit(p.limit);
  }),
};

const q = AUDIT_QUERY_STATEMENTS;

/** The audit page's reads: newest first by keyset on the entry id, filtered by actor and area. */
export class AuditQueryStore implements AuditQueryStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** Up to `limit` entries older than `beforeId`, newest first. */
  async page(networkId: number, filter: AuditFilter, beforeId: number, limit: number): Promise<AuditRecord[]> {
    const values = { networkId, beforeId, actor: filter.actor ?? null, area: filter.area ?? null, limit };
    return (await q.page.all(this.sql, values)).map(toAuditRecord);
  }
}
