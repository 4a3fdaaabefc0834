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
} as const;

export interface NewAppeal {
  networkId: number;
  punishmentId: string;
  playerName: string;
  token: string;
  ticket: NewTicket;
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

  constructor(
    private readonly db: Db,
    private readonly tickets: TicketStore,
  ) {
    this.insertStatement = db.prepare(APPEAL_SQL.insert);
    this.openOfStatement = db.prepare<[number, string], { ticketId: string }>(APPEAL_SQL.openOf);
    this.byTokenStatement = db.prepare<[Buffer], AppealRow>(APPEAL_SQL.byToken);
    this.byTicketStatement = db.prepare<[number, string], AppealRow>(APPEAL_SQL.byTicket);
    this.decideStatement = db.prepare<AppealDecision>(APPEAL_SQL.decide);
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
}
