import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { PanelSession } from '../panel-sessions.js';

/** The statements of {@link PgPanelSessionStore}. */
export const PG_PANEL_SESSION_SQL = pgStatements('panelSessions', {
  insert: `INSERT INTO service_panel_sessions (id_hash, account_id, network_id, created_at, expires_at, stage)
    VALUES ($1, $2, $3, $4, $5, $6)`,
  byHash: `SELECT account_id AS "accountId", network_id AS "networkId", created_at AS "createdAt",
      expires_at AS "expiresAt", stage
    FROM service_panel_sessions WHERE id_hash = $1 AND expires_at > $2`,
  remove: 'DELETE FROM service_panel_sessions WHERE id_hash = $1',
  removeOfAccount: 'DELETE FROM service_panel_sessions WHERE account_id = $1',
  switchNetwork: 'UPDATE service_panel_sessions SET network_id = $2 WHERE id_hash = $1',
  pruneExpired: `DELETE FROM service_panel_sessions WHERE id_hash IN
    (SELECT id_hash FROM service_panel_sessions WHERE expires_at <= $1 LIMIT 500)`,
});

/** Panel sessions on PostgreSQL, keyed by the SHA-256 of their id (the id itself is only in the cookie). */
export class PgPanelSessionStore {
  constructor(private readonly db: PgDb) {}

  async create(idHash: Buffer, session: PanelSession): Promise<void> {
    const values = [idHash, session.accountId, session.networkId, session.createdAt, session.expiresAt, session.stage];
    await this.db.run(PG_PANEL_SESSION_SQL.insert, values);
  }

  /** The session, unless it expired by `nowMs`. */
  find(idHash: Buffer, nowMs: number): Promise<PanelSession | undefined> {
    return this.db.row(PG_PANEL_SESSION_SQL.byHash, [idHash, nowMs]);
  }

  async remove(idHash: Buffer): Promise<void> {
    await this.db.run(PG_PANEL_SESSION_SQL.remove, [idHash]);
  }

  /** Ends every session of an account (disabled, or its password reset). */
  async removeAllOf(accountId: number): Promise<void> {
    await this.db.run(PG_PANEL_SESSION_SQL.removeOfAccount, [accountId]);
  }

  async switchNetwork(idHash: Buffer, networkId: number): Promise<void> {
    await this.db.run(PG_PANEL_SESSION_SQL.switchNetwork, [idHash, networkId]);
  }

  /** Deletes up to 500 expired sessions; the number deleted. */
  pruneExpired(nowMs: number): Promise<number> {
    return this.db.run(PG_PANEL_SESSION_SQL.pruneExpired, [nowMs]);
  }
}
