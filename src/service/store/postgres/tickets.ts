import type { Reply, Ticket, TicketSummary } from '../../../contract/schemas.js';
import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { type NewTicket, REPLY_UPSERT, TICKET_HEAD_COLUMNS, TICKET_UPSERT, ticketColumns } from '../ticket-columns.js';
import {
  type ReplyRow,
  renderable,
  SUMMARY_COLUMNS,
  type TicketRow,
  toFacts,
  toReply,
  toStaffRow,
  toSummary,
  toTicket,
  type UnrenderableTicketReport,
} from '../ticket-rows.js';
import {
  CLOSED_STATUS,
  type ClaimOutcome,
  type CloseOutcome,
  OPEN_STATUS,
  type StaffTicketRow,
  type TicketFacts,
} from '../tickets.js';

/** The statements of {@link PgTicketStore}. */
export const PG_TICKET_SQL = pgStatements('tickets', {
  saveTicket: `INSERT INTO service_tickets (${TICKET_HEAD_COLUMNS}, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ${TICKET_UPSERT}`,
  insertTicket: `INSERT INTO service_tickets (${TICKET_HEAD_COLUMNS}, created_server, replay_url, chat_messages,
         created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
  saveReply: `INSERT INTO service_ticket_replies (network_id, ticket_id, id, author_name, message, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ${REPLY_UPSERT}`,
  touch: 'UPDATE service_tickets SET updated_at = greatest(updated_at, $3) WHERE network_id = $1 AND id = $2',
  byId: 'SELECT * FROM service_tickets WHERE network_id = $1 AND id = $2',
  repliesOf: `SELECT id, author_name, message, created_at FROM service_ticket_replies
       WHERE network_id = $1 AND ticket_id = $2 ORDER BY created_at, id`,
  byCreator: `SELECT ${SUMMARY_COLUMNS} FROM service_tickets WHERE network_id = $1 AND creator_uuid = $2
       ORDER BY created_at DESC, id DESC LIMIT $3`,
  setStatus: `UPDATE service_tickets SET status = $3, updated_at = greatest(updated_at, $4)
       WHERE network_id = $1 AND id = $2 AND status <> $3`,
  byStatusPage: `SELECT ${SUMMARY_COLUMNS}, description, reported_player_name, created_server, assignee_name
       FROM service_tickets WHERE network_id = $1 AND status = $2 AND type = ANY($3::text[])
       ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
  // One type: a range of service_tickets_status_type_created in order, however rare the type.
  byStatusAndTypePage: `SELECT ${SUMMARY_COLUMNS}, description, reported_player_name, created_server, assignee_name
       FROM service_tickets WHERE network_id = $1 AND status = $2 AND type = $3
       ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
  countByStatus: `SELECT count(*)::integer AS total FROM service_tickets
       WHERE network_id = $1 AND status = $2 AND type = ANY($3::text[])`,
  // Only an open ticket nobody else holds; the same staff member claiming again changes nothing.
  claim: `UPDATE service_tickets SET assignee_uuid = $3, assignee_name = $4, updated_at = greatest(updated_at, $5)
       WHERE network_id = $1 AND id = $2 AND status = '${OPEN_STATUS}'
         AND (assignee_uuid IS NULL OR assignee_uuid = $3)`,
  close: `UPDATE service_tickets SET status = '${CLOSED_STATUS}', closed_reason = $4,
         assignee_name = coalesce(assignee_name, $3), updated_at = greatest(updated_at, $5)
       WHERE network_id = $1 AND id = $2 AND lower(status) <> 'closed'`,
});

/** Tickets and their replies on PostgreSQL; behaves as the SQLite TicketStore. */
export class PgTicketStore {
  constructor(
    private readonly db: PgDb,
    private readonly reportUnrenderable: UnrenderableTicketReport = () => {},
  ) {}

  async create(networkId: number, ticket: NewTicket): Promise<void> {
    await this.db.run(PG_TICKET_SQL.insertTicket, [
      ...Object.values(ticketColumns(networkId, ticket, OPEN_STATUS)),
      ticket.createdServer,
      ticket.replayUrl,
      JSON.stringify(ticket.chatMessages),
      ticket.createdAtMs,
    ]);
  }

  async factsOf(networkId: number, id: string): Promise<TicketFacts | undefined> {
    const row = await this.row(networkId, id);
    return row && toFacts(row);
  }

  async setStatus(networkId: number, id: string, status: string, nowMs: number): Promise<boolean> {
    return (await this.db.run(PG_TICKET_SQL.setStatus, [networkId, id, status, nowMs])) === 1;
  }

  async page(
    networkId: number,
    filter: { status: string; types: readonly string[] },
    page: { limit: number; offset: number },
  ): Promise<{ total: number; tickets: StaffTicketRow[] }> {
    const where = [networkId, filter.status, [...filter.types]];
    const [onlyType, ...otherTypes] = filter.types;
    const rows =
      onlyType !== undefined && otherTypes.length === 0
        ? await this.db.rows<TicketRow>(PG_TICKET_SQL.byStatusAndTypePage, [
            networkId,
            filter.status,
            onlyType,
            page.limit,
            page.offset,
          ])
        : await this.db.rows<TicketRow>(PG_TICKET_SQL.byStatusPage, [...where, page.limit, page.offset]);
    const tickets = renderable(rows, undefined, toStaffRow, this.reportUnrenderable);
    const count = await this.db.row<{ total: number }>(PG_TICKET_SQL.countByStatus, where);
    return { total: count?.total ?? 0, tickets };
  }

  async claim(
    networkId: number,
    id: string,
    staff: { uuid: string; name: string },
    nowMs: number,
  ): Promise<ClaimOutcome> {
    return this.db.transaction(async (tx): Promise<ClaimOutcome> => {
      const changed = await tx.run(PG_TICKET_SQL.claim, [networkId, id, staff.uuid.toLowerCase(), staff.name, nowMs]);
      if (changed > 0) return { outcome: 'claimed', assigneeName: staff.name };
      const row = await tx.row<TicketRow>(PG_TICKET_SQL.byId, [networkId, id]);
      if (!row) return { outcome: 'missing' };
      if (row.status !== OPEN_STATUS) return { outcome: 'closed' };
      return { outcome: 'held', assigneeName: row.assignee_name ?? '' };
    });
  }

  async close(
    networkId: number,
    id: string,
    staff: { name: string; reason: string | null },
    nowMs: number,
  ): Promise<CloseOutcome> {
    return this.db.transaction(async (tx): Promise<CloseOutcome> => {
      const changed = await tx.run(PG_TICKET_SQL.close, [networkId, id, staff.name, staff.reason, nowMs]);
      const row = await tx.row<TicketRow>(PG_TICKET_SQL.byId, [networkId, id]);
      if (!row) return { outcome: 'missing' };
      if (changed === 0) return { outcome: 'already-closed' };
      return { outcome: 'closed', assigneeName: row.assignee_name };
    });
  }

  async save(networkId: number, ticket: Ticket): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(PG_TICKET_SQL.saveTicket, [
        ...Object.values(ticketColumns(networkId, ticket, ticket.status)),
        Date.parse(ticket.createdAt),
        Date.parse(ticket.updatedAt),
      ]);
      for (const reply of ticket.replies) await this.writeReply(tx, networkId, ticket.id, reply);
    });
  }

  async saveReply(networkId: number, ticketId: string, reply: Reply): Promise<void> {
    await this.db.transaction((tx) => this.writeReply(tx, networkId, ticketId, reply));
  }

  async exists(networkId: number, id: string): Promise<boolean> {
    return (await this.row(networkId, id)) !== undefined;
  }

  async find(networkId: number, id: string): Promise<Ticket | undefined> {
    const row = await this.row(networkId, id);
    if (!row) return undefined;
    const replyRows = await this.db.rows<ReplyRow>(PG_TICKET_SQL.repliesOf, [networkId, id]);
    return toTicket(row, renderable(replyRows, id, toReply, this.reportUnrenderable));
  }

  async byPlayer(networkId: number, creatorUuid: string, limit: number): Promise<TicketSummary[]> {
    const rows = await this.db.rows<TicketRow>(PG_TICKET_SQL.byCreator, [networkId, creatorUuid.toLowerCase(), limit]);
    return renderable(rows, undefined, toSummary, this.reportUnrenderable);
  }

  private async row(networkId: number, id: string): Promise<TicketRow | undefined> {
    return this.db.row<TicketRow>(PG_TICKET_SQL.byId, [networkId, id]);
  }

  private async writeReply(tx: PgDb, networkId: number, ticketId: string, reply: Reply): Promise<void> {
    const createdAt = Date.parse(reply.createdAt);
    await tx.run(PG_TICKET_SQL.saveReply, [networkId, ticketId, reply.id, reply.authorName, reply.message, createdAt]);
    await tx.run(PG_TICKET_SQL.touch, [networkId, ticketId, createdAt]);
  }
}
