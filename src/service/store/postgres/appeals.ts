import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { APPEAL_COLUMNS, type Appeal, type AppealRow, toAppeal } from '../appeal-rows.js';
import { type AppealDecision, hashAppealToken, type NewAppeal, type UnappealableMark } from '../appeals.js';
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
  lastDeniedAt: `SELECT max(decided_at) AS "decidedAt" FROM service_appeals
    WHERE network_id = $1 AND punishment_id = $2 AND status = 'denied'`,
  unappealable: `SELECT marked_by AS "markedBy", marked_at AS "markedAt" FROM service_unappealable_punishments
    WHERE network_id = $1 AND punishment_id = $2`,
  markUnappealable: `INSERT INTO service_unappealable_punishments (network_id, punishment_id, marked_by, marked_at)
    VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
  unmarkUnappealable: 'DELETE FROM service_unappealable_punishments WHERE network_id = $1 AND punishment_id = $2',
  // Per punishment of the player, a lookup in the (small) table of marks: never a walk of the network's marks.
  unappealableOfTarget: `SELECT p.id AS "punishmentId" FROM service_punishments p
    WHERE p.network_id = $1 AND p.target_uuid = $2 AND EXISTS (SELECT 1 FROM service_unappealable_punishments u
      WHERE u.network_id = p.network_id AND u.punishment_id = p.id)`,
  cooldownHours: 'SELECT appeal_cooldown_hours AS hours FROM service_networks WHERE id = $1',
  setCooldownHours: 'UPDATE service_networks SET appeal_cooldown_hours = $2 WHERE id = $1',
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

  /** When the punishment's last denied appeal was decided; undefined when none was denied. */
  async lastDeniedAt(networkId: number, punishmentId: string): Promise<number | undefined> {
    const row = await this.db.row<{ decidedAt: number | null }>(PG_APPEAL_SQL.lastDeniedAt, [networkId, punishmentId]);
    return row?.decidedAt ?? undefined;
  }

  /** Who marked the punishment unappealable; undefined when it may be appealed. */
  unappealable(networkId: number, punishmentId: string): Promise<UnappealableMark | undefined> {
    return this.db.row<UnappealableMark>(PG_APPEAL_SQL.unappealable, [networkId, punishmentId]);
  }

  /** Marks the punishment unappealable (`mark`) or appealable again (null); false when that changed nothing. */
  async setUnappealable(
    networkId: number,
    punishmentId: string,
    mark: { markedBy: string; markedAtMs: number } | null,
  ): Promise<boolean> {
    if (mark === null) return (await this.db.run(PG_APPEAL_SQL.unmarkUnappealable, [networkId, punishmentId])) === 1;
    const values = [networkId, punishmentId, mark.markedBy, mark.markedAtMs];
    return (await this.db.run(PG_APPEAL_SQL.markUnappealable, values)) === 1;
  }

  /** The ids of a player's punishments marked unappealable. */
  async unappealableOfTarget(networkId: number, targetUuid: string): Promise<string[]> {
    const rows = await this.db.rows<{ punishmentId: string }>(PG_APPEAL_SQL.unappealableOfTarget, [
      networkId,
      targetUuid,
    ]);
    return rows.map((row) => row.punishmentId);
  }

  /** Hours a punishment waits after a denied appeal before it may be appealed again, in this network. */
  async cooldownHours(networkId: number): Promise<number | undefined> {
    return (await this.db.row<{ hours: number }>(PG_APPEAL_SQL.cooldownHours, [networkId]))?.hours;
  }

  async setCooldownHours(networkId: number, hours: number): Promise<void> {
    await this.db.run(PG_APPEAL_SQL.setCooldownHours, [networkId, hours]);
  }
}
