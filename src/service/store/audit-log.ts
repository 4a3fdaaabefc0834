import type { Db } from '../../db/open-db.js';

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

/** The statements of {@link AuditLog}; test/service/query-plans.test.ts checks each one's plan. */
export const AUDIT_LOG_SQL = {
  insert: `INSERT INTO service_audit_log (network_id, actor, via, action, subject, detail, created_at)
       VALUES (@networkId, @actor, @via, @action, @subject, @detail, @atMs)`,
  // Keyset pages, newest first: `beforeId` is the smallest id of the page before.
  newest: `SELECT * FROM service_audit_log WHERE network_id = @networkId AND id < @beforeId
       ORDER BY id DESC LIMIT @limit`,
} as const;

/** Every staff action, through the panel or the API, per network; rows are only ever added. */
export class AuditLog {
  private readonly insertStatement;
  private readonly newestStatement;

  constructor(db: Db) {
    this.insertStatement = db.prepare<{
      networkId: number;
      actor: string;
      via: AuditVia;
      action: string;
      subject: string | null;
      detail: string | null;
      atMs: number;
    }>(AUDIT_LOG_SQL.insert);
    this.newestStatement = db.prepare<{ networkId: number; beforeId: number; limit: number }, AuditRow>(
      AUDIT_LOG_SQL.newest,
    );
  }

  record(entry: AuditEntry): void {
    this.insertStatement.run({
      networkId: entry.networkId,
      actor: entry.actor,
      via: entry.via,
      action: entry.action,
      subject: entry.subject ?? null,
      detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      atMs: entry.atMs,
    });
  }

  /** Up to `limit` entries of a network, newest first, older than the entry `beforeId` when given. */
  newest(networkId: number, limit: number, beforeId = Number.MAX_SAFE_INTEGER): AuditRecord[] {
    return this.newestStatement.all({ networkId, beforeId, limit }).map(toAuditRecord);
  }
}
