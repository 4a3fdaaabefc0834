import { sql as raw } from 'kysely';
import { TICKET_ASSIGNEE_SQL } from '../db/migrations/001-baseline.js';
import { type Prepared, prepare, type SqlContext } from '../db/prepared.js';
import type { ListedTicket, TicketCursor, TicketFilter, TicketListStorePort } from './ports/ticket-list.js';
import { TICKET_PAGE_FILTERS, type TicketPageStatement, ticketPageStatementFor } from './ports/ticket-list.js';

type PageValues = TicketFilter & { networkId: number; beforeCreatedAt: number; beforePosition: number; limit: number };

// The text the assignee indexes are built on, so the filter reads through them.
const ASSIGNEE = raw<string>`${raw.raw(TICKET_ASSIGNEE_SQL)}`;

/** One page statement per set of filters, so each reads the index whose leading columns they are. */
function pageStatement(name: TicketPageStatement): Prepared<PageValues, ListedTicket> {
  const filters: readonly string[] = TICKET_PAGE_FILTERS[name];
  return prepare(`ticketList.${name}`, ({ db, choices }, p) => {
    let page = db
      .selectFrom('service_tickets')
      .select([
        choices.insertionOrder.as('position'),
        'id',
        'type',
        'subject',
        'status',
        'priority',
        'creator_name as creatorName',
        'assignee_name as assignee',
        'created_at as createdAt',
        'updated_at as updatedAt',
      ])
      .where('network_id', '=', p.networkId);
    if (filters.includes('status')) page = page.where('status', '=', p.status!);
    if (filters.includes('assignee')) page = page.where(ASSIGNEE, '=', p.assignee!);
    if (filters.includes('type')) page = page.where('type', '=', p.type!);
    return page
      .where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', choices.insertionOrder), '<', tuple(p.beforeCreatedAt, p.beforePosition)),
      )
      .orderBy('created_at', 'desc')
      .orderBy(choices.insertionOrder, 'desc')
      .limit(p.limit);
  });
}

/** The statements of {@link TicketListStore}; the query-plan tests check each one's plan. */
export const TICKET_LIST_STATEMENTS = {
  ...(Object.fromEntries(
    Object.keys(TICKET_PAGE_FILTERS).map((name) => [name, pageStatement(name as TicketPageStatement)]),
  ) as Record<TicketPageStatement, Prepared<PageValues, ListedTicket>>),
  // A panel account has no game UUID: the name alone says who holds the ticket.
  assign: prepare<{ networkId: number; id: string; assignee: string | null; nowMs: number }, never>(
    'ticketList.assign',
    ({ db, choices }, p) =>
      db
        .updateTable('service_tickets')
        .set((update) => ({
          assignee_uuid: null,
          assignee_name: p.assignee,
          updated_at: choices.greater(update.ref('updated_at'), p.nowMs),
        }))
        .where('network_id', '=', p.networkId)
        .where('id', '=', p.id),
  ),
  assigneeOf: prepare<{ networkId: number; id: string }, { assignee: string | null }>(
    'ticketList.assigneeOf',
    ({ db }, p) =>
      db
        .selectFrom('service_tickets')
        .select('assignee_name as assignee')
        .where('network_id', '=', p.networkId)
        .where('id', '=', p.id),
  ),
};

const q = TICKET_LIST_STATEMENTS;

/** The staff's list of tickets (newest first, keyset pages, by status, type and assignee) and assignment. */
export class TicketListStore implements TicketListStorePort {
  constructor(private readonly sql: SqlContext) {}

  page(networkId: number, filter: TicketFilter, after: TicketCursor, limit: number): Promise<ListedTicket[]> {
    return q[ticketPageStatementFor(filter)].all(this.sql, {
      networkId,
      ...filter,
      beforeCreatedAt: after.createdAt,
      beforePosition: after.position,
      limit,
    });
  }

  /** Assigns the ticket to a staff member (null: nobody); false when the network has no such ticket. */
  async assign(networkId: number, id: string, assignee: string | null, nowMs: number): Promise<boolean> {
    return (await q.assign.run(this.sql, { networkId, id, assignee, nowMs })) === 1;
  }

  async assigneeOf(networkId: number, id: string): Promise<string | null> {
    return (await q.assigneeOf.first(this.sql, { networkId, id }))?.assignee ?? null;
  }
}
