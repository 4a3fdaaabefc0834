import type { AuditRecord } from './audit-log.js';

export interface AuditFilter {
  /** Exactly this actor (a username, an issuer name, `admin token`). */
  actor?: string;
  /** The area of the action, the part before the dot: `punishment`, `ticket`, `appeal`... */
  area?: string;
}

/** The audit page's reads: newest first by keyset on the entry id, filtered by actor and area. */
export interface AuditQueryStorePort {
  page(networkId: number, filter: AuditFilter, beforeId: number, limit: number): Promise<AuditRecord[]>;
}
