/** Where a staff action came from. */
export type AuditVia = 'panel' | 'api' | 'admin';

/** One staff action: who did what to what, in which network. */
export interface AuditEntry {
  networkId: number;
  /** A panel username, the issuer name an API call gave, or `admin token`. */
  actor: string;
  via: AuditVia;
  /** What was done, as `area.verb`: `punishment.create`, `punishment.pardon`, `account.disable`... */
  action: string;
  /** What it was done to: a punishment id, a player UUID, a username... */
  subject?: string;
  /** Further facts (reason, role, type...); never a password, key, token or session id. */
  detail?: Record<string, unknown>;
  atMs: number;
}

export interface AuditRecord extends Omit<AuditEntry, 'subject' | 'detail'> {
  id: number;
  subject: string | null;
  detail: Record<string, unknown> | null;
}

/** A row of `service_audit_log` as both databases return it. */
export interface AuditRow {
  id: number;
  network_id: number;
  actor: string;
  via: AuditVia;
  action: string;
  subject: string | null;
  detail: string | null;
  created_at: number;
}

export function toAuditRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    networkId: row.network_id,
    actor: row.actor,
    via: row.via,
    action: row.action,
    subject: row.subject,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
    atMs: row.created_at,
  };
}

/** What staff did, per network: who, through which door (panel, api, admin), what and to whom. */
export interface AuditLogPort {
  record(entry: AuditEntry): Promise<void>;
  /** The network's newest entries with an id below `beforeId` (all when left out), newest first, at most `limit`. */
  newest(networkId: number, limit: number, beforeId?: number): Promise<AuditRecord[]>;
}
