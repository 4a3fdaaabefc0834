import type { Db } from '../../db/open-db.js';

/** `full` opens the panel; `code` has passed the password and waits for the second factor. */
export type SessionStage = 'full' | 'code';

/** A live session: whose it is, which network it looks at, until when it holds, how far its login got. */
export interface PanelSession {
  accountId: number;
  networkId: number;
  createdAt: number;
  expiresAt: number;
  stage: SessionStage;
}

/** The statements of {@link PanelSessionStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PANEL_SESSION_SQL = {
  insert: `INSERT INTO service_panel_sessions (id_hash, account_id, network_id, created_at, expires_at, stage)
       VALUES (@idHash, @accountId, @networkId, @createdAt, @expiresAt, @stage)`,
  byHash: `SELECT account_id AS accountId, network_id AS networkId, created_at AS createdAt, expires_at AS expiresAt,
         stage
       FROM service_panel_sessions WHERE id_hash = ? AND expires_at > ?`,
  remove: 'DELETE FROM service_panel_sessions WHERE id_hash = ?',
  removeOfAccount: 'DELETE FROM service_panel_sessions WHERE account_id = ?',
  switchNetwork: 'UPDATE service_panel_sessions SET network_id = @networkId WHERE id_hash = @idHash',
  pruneExpired: `DELETE FROM service_panel_sessions WHERE id_hash IN
       (SELECT id_hash FROM service_panel_sessions WHERE expires_at <= ? LIMIT 500)`,
} as const;

/** Panel sessions, keyed by the SHA-256 of their id (the id itself is only in the staff member's cookie). */
export class PanelSessionStore {
  private readonly insertStatement;
  private readonly byHash;
  private readonly removeStatement;
  private readonly removeOfAccount;
  private readonly switchStatement;
  private readonly pruneStatement;

  constructor(db: Db) {
    this.insertStatement = db.prepare<PanelSession & { idHash: Buffer }>(PANEL_SESSION_SQL.insert);
    this.byHash = db.prepare<[Buffer, number], PanelSession>(PANEL_SESSION_SQL.byHash);
    this.removeStatement = db.prepare<[Buffer]>(PANEL_SESSION_SQL.remove);
    this.removeOfAccount = db.prepare<[number]>(PANEL_SESSION_SQL.removeOfAccount);
    this.switchStatement = db.prepare<{ idHash: Buffer; networkId: number }>(PANEL_SESSION_SQL.switchNetwork);
    this.pruneStatement = db.prepare<[number]>(PANEL_SESSION_SQL.pruneExpired);
  }

  create(idHash: Buffer, session: PanelSession): void {
    this.insertStatement.run({ idHash, ...session });
  }

  /** The session, unless it expired by `nowMs`. */
  find(idHash: Buffer, nowMs: number): PanelSession | undefined {
    return this.byHash.get(idHash, nowMs);
  }

  remove(idHash: Buffer): void {
    this.removeStatement.run(idHash);
  }

  /** Ends every session of an account (disabled, or its password reset). */
  removeAllOf(accountId: number): void {
    this.removeOfAccount.run(accountId);
  }

  switchNetwork(idHash: Buffer, networkId: number): void {
    this.switchStatement.run({ idHash, networkId });
  }

  /** Deletes up to 500 expired sessions; the number deleted. */
  pruneExpired(nowMs: number): number {
    return this.pruneStatement.run(nowMs).changes;
  }
}
