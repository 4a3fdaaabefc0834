import type { ListedTicket, TicketCursor, TicketFilter } from '../ticket-list.js';
import { type PgDb, pgStatements } from './pool.js';

// row_id stands in for SQLite's rowid: the keyset's tie-break after created_at (schema version 11).
const COLUMNS = `row_id AS position, id, type, subject, status, priority, creator_name AS "creatorName",
    assignee_name AS assignee, created_at AS "createdAt", updated_at AS "updatedAt"`;
const OTHER_FILTERS = `($2::text IS NULL OR type = $2) AND ($3::text IS NULL OR coalesce(assignee_name, '') = $3)
    AND (created_at, row_id) < ($4, $5)`;

/** The statements of {@link PgTicketListStore}. */
export const PG_TICKET_LIST_SQL = pgStatements('ticketList', {
  page: `SELECT ${COLUMNS} FROM service_tickets WHERE network_id = $1 AND ${OTHER_FILTERS}
    ORDER BY created_at DESC, row_id DESC LIMIT $6`,
  pageOfStatus: `SELECT ${COLUMNS} FROM service_tickets WHERE network_id = $1 AND status = $7 AND ${OTHER_FILTERS}
    ORDER BY created_at DESC, row_id DESC LIMIT $6`,
  // A panel account has no game UUID: the name alone says who holds the ticket.
  assign: `UPDATE service_tickets SET assignee_uuid = NULL, assignee_name = $3, updated_at = greatest(updated_at, $4)
    WHERE network_id = $1 AND id = $2`,
  assigneeOf: 'SELECT assignee_name AS assignee FROM service_tickets WHERE network_id = $1 AND id = $2',
});

/** The staff's list of tickets (newest first, keyset pages, by status, type and assignee) and assignment, on PostgreSQL. */
export class PgTicketListStore {
  constructor(private readonly db: PgDb) {}

  page(networkId: number, filter: TicketFilter, after: TicketCursor, limit: number): Promise<ListedTicket[]> {
    const values = [networkId, filter.type ?? null, filter.assignee ?? null, after.createdAt, after.position, limit];
    return filter.status === undefined
      ? this.db.rows(PG_TICKET_LIST_SQL.page, values)
      : this.db.rows(PG_TICKET_LIST_SQL.pageOfStatus, [...values, filter.status]);
  }

  /** Assigns the ticket to a staff member (null: nobody); false when the network has no such ticket. */
  async assign(networkId: number, id: string, assignee: string | null, nowMs: number): Promise<boolean> {
    return (await this.db.run(PG_TICKET_LIST_SQL.assign, [networkId, id, assignee, nowMs])) === 1;
  }

  async assigneeOf(networkId: number, id: string): Promise<string | null> {
    return (
      (await this.db.row<{ assignee: string | null }>(PG_TICKET_LIST_SQL.assigneeOf, [networkId, id]))?.assignee ?? null
    );
  }
}
