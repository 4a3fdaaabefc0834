import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { PanelSession, PanelSessionStorePort } from './ports/panel-sessions.js';

type ByHash = { idHash: Buffer };

/** The statements of {@link PanelSessionStore}; the query-plan tests check each one's plan. */
export const PANEL_SESSION_STATEMENTS = {
  insert: prepare<PanelSession & ByHash, never>('panelSessions.insert', ({ db }, p) =>
    db.insertInto('service_panel_sessions').values({
      id_hash: p.idHash,
      account_id: p.accountId,
      network_id: p.networkId,
      created_at: p.createdAt,
      expires_at: p.expiresAt,
      stage: p.stage,
    }),
  ),
  byHash: prepare<ByHash & { nowMs: number }, PanelSession>('panelSessions.byHash', ({ db }, p) =>
    db
      .selectFrom('service_panel_sessions')
      .select([
        'account_id as accountId',
        'network_id as networkId',
        'created_at as createdAt',
        'expires_at as expiresAt',
        'stage',
      ])
      .where('id_hash', '=', p.idHash)
      .where('expires_at', '>', p.nowMs),
  ),
  remove: prepare<ByHash, never>('panelSessions.remove', ({ db }, p) =>
    db.deleteFrom('service_panel_sessions').where('id_hash', '=', p.idHash),
  ),
  removeOfAccount: prepare<{ accountId: number }, never>('panelSessions.removeOfAccount', ({ db }, p) =>
    db.deleteFrom('service_panel_sessions').where('account_id', '=', p.accountId),
  ),
  switchNetwork: prepare<ByHash & { networkId: number }, never>('panelSessions.switchNetwork', ({ db }, p) =>
    db.updateTable('service_panel_sessions').set({ network_id: p.networkId }).where('id_hash', '=', p.idHash),
  ),
  pruneExpired: prepare<{ nowMs: number }, never>('panelSessions.pruneExpired', ({ db }, p) =>
    db
      .deleteFrom('service_panel_sessions')
      .where('id_hash', 'in', (eb) =>
        eb
          .selectFrom('service_panel_sessions')
          .select('id_hash')
          .where('expires_at', '<=', p.nowMs)
          .limit(raw.lit(500)),
      ),
  ),
};

const q = PANEL_SESSION_STATEMENTS;

/** Panel sessions, keyed by the SHA-256 of their id (the id itself is only in the staff member's cookie). */
export class PanelSessionStore implements PanelSessionStorePort {
  constructor(private readonly sql: SqlContext) {}

  async create(idHash: Buffer, session: PanelSession): Promise<void> {
    await q.insert.run(this.sql, { idHash, ...session });
  }

  /** The session, unless it expired by `nowMs`. */
  find(idHash: Buffer, nowMs: number): Promise<PanelSession | undefined> {
    return q.byHash.first(this.sql, { idHash, nowMs });
  }

  async remove(idHash: Buffer): Promise<void> {
    await q.remove.run(this.sql, { idHash });
  }

  /** Ends every session of an account (disabled, or its password reset). */
  async removeAllOf(accountId: number): Promise<void> {
    await q.removeOfAccount.run(this.sql, { accountId });
  }

  async switchNetwork(idHash: Buffer, networkId: number): Promise<void> {
    await q.switchNetwork.run(this.sql, { idHash, networkId });
  }

  /** Deletes up to 500 expired sessions; the number deleted. */
  pruneExpired(nowMs: number): Promise<number> {
    return q.pruneExpired.run(this.sql, { nowMs });
  }
}
