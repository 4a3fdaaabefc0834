import type { Reply, Ticket, TicketSummary } from '../../contract/schemas.js';
import type { Db } from '../../db/open-db.js';
import { type NewTicket, REPLY_UPSERT, TICKET_HEAD_COLUMNS, TICKET_UPSERT, ticketColumns } from './ticket-columns.js';
import {
  type ReplyRow,
  renderable,
  type StaffTicketRow,
  SUMMARY_COLUMNS,
  type TicketFacts,
  type TicketRow,
  toFacts,
  toReply,
  toStaffRow,
  toSummary,
  toTicket,
  type UnrenderableTicketReport,
} from './ticket-rows.js';

export type { NewTicket } from './ticket-columns.js';
export type { StaffTicketRow, TicketFacts, UnrenderableTicketReport } from './ticket-rows.js';

/** What became of a claim: done (also when the staff member held it already), or why not. */
export type ClaimOutcome =
  | { outcome: 'claimed'; assigneeName: string }
  | { outcome: 'missing' }
  | { outcome: 'closed' }
  | { outcome: 'held'; assigneeName: string };

/** What became of a close: done, or why not. */
export type CloseOutcome =
  | { outcome: 'closed'; assigneeName: string | null }
  | { outcome: 'missing' }
  | { outcome: 'already-closed' };

export const OPEN_STATUS = 'Open';
export const CLOSED_STATUS = 'Closed';

type StatusPageArgs = { networkId: number; status: string; types: string; limit: number; offset: number };

/** The statements of {@link TicketStore}; test/service/query-plans.test.ts checks each one's plan. */
export const TICKET_SQL = {
  saveTicket: `INSERT INTO service_tickets (${TICKET_HEAD_COLUMNS}, created_at, updated_at)
       VALUES (@networkId, @id, @type, @subject, @description, @status, @priority, @creatorUuid, @creatorName,
         @reportedPlayerUuid, @reportedPlayerName, @tags, @createdAt, @updatedAt)
       ${TICKET_UPSERT}`,
  insertTicket: `INSERT INTO service_tickets (${TICKET_HEAD_COLUMNS}, created_server, replay_url, chat_messages,
         created_at, updated_at)
       VALUES (@networkId, @id, @type, @subject, @description, @status, @priority, @creatorUuid, @creatorName,
         @reportedPlayerUuid, @reportedPlayerName, @tags, @createdServer, @replayUrl, @chatMessages,
         @createdAt, @createdAt)`,
  saveReply: `INSERT INTO service_ticket_replies (network_id, ticket_id, id, author_name, message, created_at)
       VALUES (@networkId, @ticketId, @id, @authorName, @message, @createdAt)
       ${REPLY_UPSERT}`,
  touch: 'UPDATE service_tickets SET updated_at = max(updated_at, @nowMs) WHERE network_id = @networkId AND id = @id',
  setStatus: `UPDATE service_tickets SET status = @status, updated_at = max(updated_at, @nowMs)
       WHERE network_id = @networkId AND id = @id AND status <> @status`,
  byId: 'SELECT * FROM service_tickets WHERE network_id = ? AND id = ?',
  repliesOf:
    'SELECT id, author_name, message, created_at FROM service_ticket_replies WHERE network_id = ? AND ticket_id = ? ORDER BY created_at, id',
  byCreator: `SELECT ${SUMMARY_COLUMNS} FROM service_tickets WHERE network_id = ? AND creator_uuid = ?
       ORDER BY created_at DESC, id DESC LIMIT ?`,
  byStatusPage: `SELECT ${SUMMARY_COLUMNS}, description, reported_player_name, created_server, assignee_name
       FROM service_tickets
       WHERE network_id = @networkId AND status = @status AND type IN (SELECT value FROM json_each(@types))
       ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  // One type: a range of service_tickets_status_type_created in order, however rare the type.
  byStatusAndTypePage: `SELECT ${SUMMARY_COLUMNS}, description, reported_player_name, created_server, assignee_name
       FROM service_tickets WHERE network_id = @networkId AND status = @status AND type = @type
       ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  countByStatus: `SELECT count(*) AS total FROM service_tickets
       WHERE network_id = @networkId AND status = @status AND type IN (SELECT value FROM json_each(@types))`,
  // Only an open ticket nobody else holds; the same staff member claiming again changes nothing.
  claim: `UPDATE service_tickets SET assignee_uuid = @staffUuid, assignee_name = @staffName,
         updated_at = max(updated_at, @nowMs)
       WHERE network_id = @networkId AND id = @id AND status = '${OPEN_STATUS}'
         AND (assignee_uuid IS NULL OR assignee_uuid = @staffUuid)`,
  close: `UPDATE service_tickets SET status = '${CLOSED_STATUS}', closed_reason = @reason,
         assignee_name = coalesce(assignee_name, @staffName), updated_at = max(updated_at, @nowMs)
       WHERE network_id = @networkId AND id = @id AND lower(status) <> 'closed'`,
} as const;

/**
 * Tickets come from the admin API or a seed; the contract only reads them. A row whose date
 * cannot be shown is left out of lists (a reply, of its ticket) and reported, never a 500.
 */
export class TicketStore {
  private readonly upsertTicket;
  private readonly upsertReply;
  private readonly touch;
  private readonly byId;
  private readonly repliesOf;
  private readonly byCreator;
  private readonly insertTicket;
  private readonly statusStatement;
  private readonly byStatusPage;
  private readonly byStatusAndTypePage;
  private readonly countByStatus;
  private readonly claimStatement;
  private readonly closeStatement;

  constructor(
    private readonly db: Db,
    private readonly reportUnrenderable: UnrenderableTicketReport = () => {},
  ) {
    this.upsertTicket = db.prepare(TICKET_SQL.saveTicket);
    this.upsertReply = db.prepare(TICKET_SQL.saveReply);
    this.touch = db.prepare<{ networkId: number; id: string; nowMs: number }>(TICKET_SQL.touch);
    this.byId = db.prepare<[number, string], TicketRow>(TICKET_SQL.byId);
    this.repliesOf = db.prepare<[number, string], ReplyRow>(TICKET_SQL.repliesOf);
    this.insertTicket = db.prepare(TICKET_SQL.insertTicket);
    this.byCreator = db.prepare<[number, string, number], TicketRow>(TICKET_SQL.byCreator);
    this.byStatusPage = db.prepare<StatusPageArgs, TicketRow>(TICKET_SQL.byStatusPage);
    this.byStatusAndTypePage = db.prepare<Omit<StatusPageArgs, 'types'> & { type: string }, TicketRow>(
      TICKET_SQL.byStatusAndTypePage,
    );
    this.countByStatus = db.prepare<Omit<StatusPageArgs, 'limit' | 'offset'>, { total: number }>(
      TICKET_SQL.countByStatus,
    );
    this.claimStatement = db.prepare<{
      networkId: number;
      id: string;
      staffUuid: string;
      staffName: string;
      nowMs: number;
    }>(TICKET_SQL.claim);
    this.closeStatement = db.prepare<{
      networkId: number;
      id: string;
      staffName: string;
      reason: string | null;
      nowMs: number;
    }>(TICKET_SQL.close);
    this.statusStatement = db.prepare<{ networkId: number; id: string; status: string; nowMs: number }>(
      TICKET_SQL.setStatus,
    );
  }

  /** Sets the ticket's status (`Open`, `Closed`...); true when it changed. */
  setStatus(networkId: number, id: string, status: string, nowMs: number): boolean {
    return this.statusStatement.run({ networkId, id, status, nowMs }).changes === 1;
  }

  /** Stores a ticket opened by a player, status `Open`, without replies. */
  create(networkId: number, ticket: NewTicket): void {
    this.insertTicket.run({
      ...ticketColumns(networkId, ticket, OPEN_STATUS),
      createdServer: ticket.createdServer,
      replayUrl: ticket.replayUrl,
      chatMessages: JSON.stringify(ticket.chatMessages),
      createdAt: ticket.createdAtMs,
    });
  }

  /** What events and ownership checks need of a ticket; undefined when the network has no such ticket. */
  factsOf(networkId: number, id: string): TicketFacts | undefined {
    const row = this.byId.get(networkId, id);
    return row && toFacts(row);
  }

  /** One page of the network's tickets with this status and one of these types, newest first, and how many there are. */
  page(
    networkId: number,
    filter: { status: string; types: readonly string[] },
    page: { limit: number; offset: number },
  ): { total: number; tickets: StaffTicketRow[] } {
    const where = { networkId, status: filter.status, types: JSON.stringify(filter.types) };
    const [onlyType, ...otherTypes] = filter.types;
    const rows =
      onlyType !== undefined && otherTypes.length === 0
        ? this.byStatusAndTypePage.all({ networkId, status: filter.status, type: onlyType, ...page })
        : this.byStatusPage.all({ ...where, ...page });
    const tickets = renderable(rows, undefined, toStaffRow, this.reportUnrenderable);
    return { total: this.countByStatus.get(where)?.total ?? 0, tickets };
  }

  /** Assigns an open ticket to a staff member unless someone else holds it. */
  claim(networkId: number, id: string, staff: { uuid: string; name: string }, nowMs: number): ClaimOutcome {
    return this.db.transaction((): ClaimOutcome => {
      const staffUuid = staff.uuid.toLowerCase();
      const changed = this.claimStatement.run({ networkId, id, staffUuid, staffName: staff.name, nowMs }).changes;
      if (changed > 0) return { outcome: 'claimed', assigneeName: staff.name };
      const row = this.byId.get(networkId, id);
      if (!row) return { outcome: 'missing' };
      if (row.status !== OPEN_STATUS) return { outcome: 'closed' };
      return { outcome: 'held', assigneeName: row.assignee_name ?? '' };
    })();
  }

  /** Closes a ticket with an optional reason; its holder stays, else the staff member closing it becomes it. */
  close(networkId: number, id: string, staff: { name: string; reason: string | null }, nowMs: number): CloseOutcome {
    return this.db.transaction((): CloseOutcome => {
      const changed = this.closeStatement.run({
        networkId,
        id,
        staffName: staff.name,
        reason: staff.reason,
        nowMs,
      }).changes;
      const row = this.byId.get(networkId, id);
      if (!row) return { outcome: 'missing' };
      if (changed === 0) return { outcome: 'already-closed' };
      return { outcome: 'closed', assigneeName: row.assignee_name };
    })();
  }

  /** Creates or replaces the ticket and its listed replies, in one transaction. */
  save(networkId: number, ticket: Ticket): void {
    this.db.transaction(() => {
      this.upsertTicket.run({
        ...ticketColumns(networkId, ticket, ticket.status),
        createdAt: Date.parse(ticket.createdAt),
        updatedAt: Date.parse(ticket.updatedAt),
      });
      for (const reply of ticket.replies) this.saveReply(networkId, ticket.id, reply);
    })();
  }

  saveReply(networkId: number, ticketId: string, reply: Reply): void {
    const createdAt = Date.parse(reply.createdAt);
    this.upsertReply.run({
      networkId,
      ticketId,
      id: reply.id,
      authorName: reply.authorName,
      message: reply.message,
      createdAt,
    });
    this.touch.run({ networkId, id: ticketId, nowMs: createdAt });
  }

  exists(networkId: number, id: string): boolean {
    return this.byId.get(networkId, id) !== undefined;
  }

  /** Throws {@link UnrenderableDateError} when the ticket's own dates cannot be shown. */
  find(networkId: number, id: string): Ticket | undefined {
    const row = this.byId.get(networkId, id);
    if (!row) return undefined;
    return toTicket(row, renderable(this.repliesOf.all(networkId, id), id, toReply, this.reportUnrenderable));
  }

  /** The creator's tickets, newest first, summary form only. */
  byPlayer(networkId: number, creatorUuid: string, limit: number): TicketSummary[] {
    const rows = this.byCreator.all(networkId, creatorUuid.toLowerCase(), limit);
    return renderable(rows, undefined, toSummary, this.reportUnrenderable);
  }
}
