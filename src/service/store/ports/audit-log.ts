export type { AuditEntry, AuditRecord, AuditVia } from '../audit-log.js';

import type { AuditEntry, AuditRecord } from '../audit-log.js';

/** What staff did, per network: who, through which door (panel, api, admin), what and to whom. */
export interface AuditLogPort {
  record(entry: AuditEntry): Promise<void>;
  /** The network's newest entries with an id below `beforeId` (all when left out), newest first, at most `limit`. */
  newest(networkId: number, limit: number, beforeId?: number): Promise<AuditRecord[]>;
}
