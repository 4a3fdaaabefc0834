export type { AuditFilter } from '../audit-query.js';

import type { AuditRecord } from '../audit-log.js';
import type { AuditFilter } from '../audit-query.js';

/** The audit page's reads: newest first by keyset on the entry id, filtered by actor and area. */
export interface AuditQueryStorePort {
  page(networkId: number, filter: AuditFilter, beforeId: number, limit: number): Promise<AuditRecord[]>;
}
