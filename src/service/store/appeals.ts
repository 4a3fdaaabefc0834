import { createHash } from 'node:crypto';
import type { Db } from '../../db/open-db.js';
import { type Appeal, type AppealRow, type AppealStatus, toAppeal } from './appeal-rows.js';
import type { NewTicket, TicketStore } from './tickets.js';

/** Only the hash of a player's private link is stored, so a copy of the database opens no appeal. */
export const hashAppealToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** The statements of {@link AppealStore}; test/service/query-plans.test.ts checks each one's plan. */
export const APPEAL_SQL = {
  insert: `INSERT INTO service_appeals (network_id, ticket_id, punishment_id, token_hash, player_name, status, created_at)
    VALUES (@networkId, @ticketId, @punishmentId, @tokenHash, @playerName, 'open', @createdAt)`,
  openOf: `SELECT ticket_id AS ticketId FROM service_appeals
    WHERE network_id = ? AND punishment_id = ? AND status = 'open'`,
  byToken: 'SELECT * FROM service_appeals WHERE token_hash = ?',
  byTicket: 'SELECT * FROM service_appeals WHERE network_id = ? AND ticket_id = ?',
  decide: `UPDATE service_appeals SET status = @status, answer = @answer, decided_by = @decidedBy, decided_at = @nowMs
    WHERE network_id = @networkId AND ticket_id = @ticketId AND status = 'open'`,
  lastDeniedAt: `SELECT max(decided_at) AS decidedAt FROM service_appeals
    WHERE network_id = ? AND punishment_id = ? AND status = 'denied'`,
  unappealable: `SELECT marked_by AS markedBy, marked_at AS markedAt FROM service_unappealable_punishments
    WHERE network_id = ? AND punishment_id = ?`,
  markUnappealable: `INSERT INTO service_unappealable_punishments (network_id, punishment_id, marked_by, marked_at)
    VALUES (@networkId, @punishmentId, @markedBy, @markedAtMs) ON CONFLICT DO NOTHING`,
  unmarkUnappealable: 'DELETE FROM service_unappealable_punishments WHERE network_id = ? AND punishment_id = ?',
  // Per punishment of the player, a lookup in the (small) table of marks: never a walk of the network's marks.
  unappealableOfTarget: `SELECT p.id AS punishmentId FROM service_punishments p
    WHERE p.network_id = ? AND p.target_uuid = ? AND EXISTS (SELECT 1 FROM service_unappealable_punishments u
      WHERE u.network_id = p.network_id AND u.punishment_id = p.id)`,
  cooldownHours: 'SELECT appeal_cooldown_hours AS hours FROM service_networks WHERE id = ?',
  setCooldownHours: 'UPDATE service_networks SET appeal_cooldown_hours = @hours WHERE id = @networkId',
} as const;

export interface NewAppeal {
  networkId: number;
  punishmentId: string;
  playerName: string;
  token: string;
  ticket: NewTicket;
}

/** Who marked a punishment unappealable, and when. */
export interface UnappealableMark {
  markedBy: string;
  markedAt: number;
}

export interface AppealDecision {
  networkId: number;
  ticketId: string;
  status: Exclude<AppealStatus, 'open'>;
  answer: string;
  decidedBy: string;
  nowMs: number;
}

/** Appeals of punishments, each stored with the appeal ticket it opened. */
export class AppealStore {
  private readonly insertStatement;
  private readonly openOfStatement;
  private readonly byTokenStatement;
  private readonly byTicketStatement;
  private readonly decideStatement;
  private readonly lastDeniedAtStatement;
  private readonly unappealableStatement;
  private readonly markUnappealableStatement;
  private readonly unmarkUnappealableStatement;
  private readonly unappealableOfTargetStatement;
  private readonly cooldownHoursStatement;
  private readonly setCooldownHoursStatement;

  constructor(
    private readonly db: Db,
    private readonly tickets: TicketStore,
  ) {
    this.insertStatement = db.prepare(APPEAL_SQL.insert);
    this.openOfStatement = db.prepare<[number, string], { ticketId: string }>(APPEAL_SQL.openOf);
    this.byTokenStatement = db.prepare<[Buffer], AppealRow>(APPEAL_SQL.byToken);
    this.byTicketStatement = db.prepare<[number, string], AppealRow>(APPEAL_SQL.byTicket);
    this.decideStatement = db.prepare<AppealDecision>(APPEAL_SQL.decide);
    this.lastDeniedAtStatement = db.prepare<[number, string], { decidedAt: number | null }>(APPEAL_SQL.lastDeniedAt);
    this.unappealableStatement = db.prepare<[number, string], UnappealableMark>(APPEAL_SQL.unappealable);
    this.markUnappealableStatement = db.prepare(APPEAL_SQL.markUnappealable);
    this.unmarkUnappealableStatement = db.prepare<[number, string]>(APPEAL_SQL.unmarkUnappealable);
    this.unappealableOfTargetStatement = db.prepare<[number, string], { punishmentId: string }>(
      APPEAL_SQL.unappealableOfTarget,
    );
    this.cooldownHoursStatement = db.prepare<[number], { hours: number }>(APPEAL_SQL.cooldownHours);
    this.setCooldownHoursStatement = db.prepare(APPEAL_SQL.setCooldownHours);
  }

  /**
   * Opens the appeal and its ticket in one transaction; false (nothing stored) when the punishment
   * already has an open appeal.
   */
  open(appeal: NewAppeal): boolean {
    return this.db
      .transaction(() => {
        if (this.openOfStatement.get(appeal.networkId, appeal.punishmentId)) return false;
        this.tickets.create(appeal.networkId, appeal.ticket);
        this.insertStatement.run({
          networkId: appeal.networkId,
          ticketId: appeal.ticket.id,
          punishmentId: appeal.punishmentId,
          tokenHash: hashAppealToken(appeal.token),
          playerName: appeal.playerName,
          createdAt: appeal.ticket.createdAtMs,
        });
        return true;
      })
      .immediate();
  }

  openAppealOf(networkId: number, punishmentId: string): string | undefined {
    return this.openOfStatement.get(networkId, punishmentId)?.ticketId;
  }

  /** The appeal a private link opens, whatever its network. */
  byToken(token: string): Appeal | undefined {
    const row = this.byTokenStatement.get(hashAppealToken(token));
    return row && toAppeal(row);
  }

  byTicket(networkId: number, ticketId: string): Appeal | undefined {
    const row = this.byTicketStatement.get(networkId, ticketId);
    return row && toAppeal(row);
  }

  /** Records the decision of an open appeal; false when it was not open (already decided, or none). */
  decide(decision: AppealDecision): boolean {
    return this.decideStatement.run(decision).changes === 1;
  }

  /** When the punishment's last denied appeal was decided; undefined when none was denied. */
  lastDeniedAt(networkId: number, punishmentId: string): number | undefined {
    return this.lastDeniedAtStatement.get(networkId, punishmentId)?.decidedAt ?? undefined;
  }

  /** Who marked the punishment unappealable; undefined when it may be appealed. */
  unappealable(networkId: number, punishmentId: string): UnappealableMark | undefined {
    return this.unappealableStatement.get(networkId, punishmentId);
  }

  /** Marks the punishment unappealable (`mark`) or appealable again (null); false when that changed nothing. */
  setUnappealable(
    networkId: number,
    punishmentId: string,
    mark: { markedBy: string; markedAtMs: number } | null,
  ): boolean {
    if (mark === null) return this.unmarkUnappealableStatement.run(networkId, punishmentId).changes === 1;
    return this.markUnappealableStatement.run({ networkId, punishmentId, ...mark }).changes === 1;
  }

  /** The ids of a player's punishments marked unappealable. */
  unappealableOfTarget(networkId: number, targetUuid: string): string[] {
    return this.unappealableOfTargetStatement.all(networkId, targetUuid).map((row) => row.punishmentId);
  }

  /** Hours a punishment waits after a denied appeal before it may be appealed again, in this network. */
  cooldownHours(networkId: number): number | undefined {
    return this.cooldownHoursStatement.get(networkId)?.hours;
  }

  setCooldownHours(networkId: number, hours: number): void {
    this.setCooldownHoursStatement.run({ networkId, hours });
  }
}
