import { TICKET_ASSIGNEE_SQL } from '../../db/ticket-list-indexes.js';
import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import {
  type ListedTicket,
  TICKET_PAGE_FILTERS,
  type TicketCursor,
  type TicketFilter,
  type TicketFilterKey,
  type TicketPageStatement,
  ticketPageStatementFor,
} from '../ticket-list.js';

// row_id stands in for SQLite's rowid: the keyset's tie-break after created_at (schema version 11).
const COLUMNS = `row_id AS position, id, type, subject, status, priority, creator_name AS "creatorName",
    assignee_name AS assignee, created_at AS "createdAt", updated_at AS "updatedAt"`;
const CONDITION_OF: Record<TicketFilterKey, string> = {
  status: 'status = $',
  assignee: `${TICKET_ASSIGNEE_SQL} = $`,
  type: 'type = $',
};

// $1 network, $2 and $3 the keyset, $4 the limit; then the filters present, in their order.
function pageSql(filters: readonly TicketFilterKey[]): string {
  const conditions = ['network_id = $1', ...filters.map((key, at) => `${CONDITION_OF[key]}${at + 5}`)];
  return `SELECT ${COLUMNS} FROM service_tickets WHERE ${conditions.join(' AND ')}
    AND (created_at, row_id) < ($2, $3) ORDER BY created_at DESC, row_id DESC LIMIT $4`;
}

const PAGE_SQL = Object.fromEntries(
  Object.entries(TICKET_PAGE_FILTERS).map(([name, filters]) => [name, pageSql(filters)]),
) as Record<TicketPageStatement, string>;

/** The statements of {@link PgTicketListStore}. */
export const PG_TICKET_LIST_SQL = pgStatements('ticketList', {
  ...PAGE_SQL,
  // A panel account has no game UUID: the name alone says who holds the ticket.
  assign: `UPDATE service_tickets SET assignee_uuid = NULL, assignee_name = $3, updated_at = greatest(updated_at, $4)
    WHERE network_id = $1 AND id = $2`,
  assigneeOf: 'SELECT assignee_name AS assignee FROM service_tickets WHERE network_id = $1 AND id = $2',
});

/** The staff's list of tickets (newest first, keyset pages, by status, type and assignee) and assignment, on PostgreSQL. */
export class PgTicketListStore {
  constructor(private readonly db: PgDb) {}

  page(networkId: number, filter: TicketFilter, after: TicketCursor, limit: number): Promise<ListedTicket[]> {
    const name = ticketPageStatementFor(filter);
    const filterValues = TICKET_PAGE_FILTERS[name].map((key) => filter[key]);
    return this.db.rows(PG_TICKET_LIST_SQL[name], [networkId, after.createdAt, after.position, limit, ...filterValues]);
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
