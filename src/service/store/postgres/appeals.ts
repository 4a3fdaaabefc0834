import { APPEAL_COLUMNS, type Appeal, type AppealRow, toAppeal } from '../appeal-rows.js';
import { type AppealDecision, hashAppealToken, type NewAppeal } from '../appeals.js';
import { type PgDb, pgStatements } from './pool.js';
import { PgTicketStore } from './tickets.js';

/** The statements of {@link PgAppealStore}. */
export const PG_APPEAL_SQL = pgStatements('appeals', {
  // Opening appeals of one punishment take turns, so two never both find none open.
  lockPunishment: 'SELECT 1 FROM service_punishments WHERE network_id = $1 AND id = $2 FOR UPDATE',
  insert: `INSERT INTO service_appeals (network_id, ticket_id, punishment_id, token_hash, player_name, status, created_at)
    VALUES ($1, $2, $3, $4, $5, 'open', $6)`,
  openOf: `SELECT ticket_id AS "ticketId" FROM service_appeals
    WHERE network_id = $1 AND punishment_id = $2 AND status = 'open'`,
  byToken: `SELECT ${APPEAL_COLUMNS} FROM service_appeals WHERE token_hash = $1`,
  byTicket: `SELECT ${APPEAL_COLUMNS} FROM service_appeals WHERE network_id = $1 AND ticket_id = $2`,
  decide: `UPDATE service_appeals SET status = $3, answer = $4, decided_by = $5, decided_at = $6
    WHERE network_id = $1 AND ticket_id = $2 AND status = 'open'`,
});

/** Appeals of punishments, each stored with the appeal ticket it opened, on PostgreSQL. */
export class PgAppealStore {
  constructor(private readonly db: PgDb) {}

  /** Opens the appeal and its ticket atomically; false (nothing stored) when the punishment has an open appeal. */
  open(appeal: NewAppeal): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.row(PG_APPEAL_SQL.lockPunishment, [appeal.networkId, appeal.punishmentId]);
      if (await tx.row(PG_APPEAL_SQL.openOf, [appeal.networkId, appeal.punishmentId])) return false;
      await new PgTicketStore(tx).create(appeal.networkId, appeal.ticket);
      await tx.run(PG_APPEAL_SQL.insert, [
        appeal.networkId,
        appeal.ticket.id,
        appeal.punishmentId,
        hashAppealToken(appeal.token),
        appeal.playerName,
        appeal.ticket.createdAtMs,
      ]);
      return true;
    });
  }

  async openAppealOf(networkId: number, punishmentId: string): Promise<string | undefined> {
    return (await this.db.row<{ ticketId: string }>(PG_APPEAL_SQL.openOf, [networkId, punishmentId]))?.ticketId;
  }

  /** The appeal a private link opens, whatever its network. */
  async byToken(token: string): Promise<Appeal | undefined> {
    const row = await this.db.row<AppealRow>(PG_APPEAL_SQL.byToken, [hashAppealToken(token)]);
    return row && toAppeal(row);
  }

  async byTicket(networkId: number, ticketId: string): Promise<Appeal | undefined> {
    const row = await this.db.row<AppealRow>(PG_APPEAL_SQL.byTicket, [networkId, ticketId]);
    return row && toAppeal(row);
  }

  /** Records the decision of an open appeal; false when it was not open (already decided, or none). */
  async decide(decision: AppealDecision): Promise<boolean> {
    const { networkId, ticketId, status, answer, decidedBy, nowMs } = decision;
    return (await this.db.run(PG_APPEAL_SQL.decide, [networkId, ticketId, status, answer, decidedBy, nowMs])) === 1;
  }
}
