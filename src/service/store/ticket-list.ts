import type { Db } from '../../db/open-db.js';
import { TICKET_ASSIGNEE_SQL } from '../db/ticket-list-indexes.js';

/** A ticket as the staff list shows it. */
export interface ListedTicket {
  /** Keyset position: with `createdAt`, where the next page starts. */
  position: number;
  id: string;
  type: string;
  subject: string;
  status: string;
  priority: string;
  creatorName: string;
  assignee: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface TicketFilter {
  /** Exact status (`Open`, `Closed`...), or every status. */
  status?: string;
  type?: string;
  /** A username, or `''` for tickets assigned to nobody. */
  assignee?: string;
}

export interface TicketCursor {
  createdAt: number;
  position: number;
}

export const TICKET_PAGE_START: TicketCursor = {
  createdAt: Number.MAX_SAFE_INTEGER,
  position: Number.MAX_SAFE_INTEGER,
};

const COLUMNS = `rowid AS position, id, type, subject, status, priority, creator_name AS creatorName, assignee_name AS assignee,
    created_at AS createdAt, updated_at AS updatedAt`;

/** The filters of the list, in the order they lead the indexes of schema version 13. */
export const TICKET_FILTER_KEYS = ['status', 'assignee', 'type'] as const;
export type TicketFilterKey = (typeof TICKET_FILTER_KEYS)[number];

/** One page statement for each set of filters, so each reads the index whose leading columns they are. */
export const TICKET_PAGE_FILTERS = {
  page: [],
  pageOfStatus: ['status'],
  pageOfType: ['type'],
  pageOfStatusAndType: ['status', 'type'],
  pageOfAssignee: ['assignee'],
  pageOfStatusAndAssignee: ['status', 'assignee'],
  pageOfAssigneeAndType: ['assignee', 'type'],
  pageOfStatusAssigneeAndType: ['status', 'assignee', 'type'],
} as const satisfies Record<string, readonly TicketFilterKey[]>;
export type TicketPageStatement = keyof typeof TICKET_PAGE_FILTERS;

/** The page statement for the filters present (`''`, nobody, is present). */
export function ticketPageStatementFor(filter: TicketFilter): TicketPageStatement {
  const present = TICKET_FILTER_KEYS.filter((key) => filter[key] !== undefined).join();
  const found = Object.entries(TICKET_PAGE_FILTERS).find(([, keys]) => keys.join() === present);
  return found![0] as TicketPageStatement;
}

const CONDITION_OF: Record<TicketFilterKey, string> = {
  status: 'status = @status',
  assignee: `${TICKET_ASSIGNEE_SQL} = @assignee`,
  type: 'type = @type',
};

function pageSql(filters: readonly TicketFilterKey[]): string {
  const conditions = ['network_id = @networkId', ...filters.map((key) => CONDITION_OF[key])];
  return `SELECT ${COLUMNS} FROM service_tickets WHERE ${conditions.join(' AND ')}
    AND (created_at, rowid) < (@beforeCreatedAt, @beforePosition) ORDER BY created_at DESC, rowid DESC LIMIT @limit`;
}

const PAGE_SQL = Object.fromEntries(
  Object.entries(TICKET_PAGE_FILTERS).map(([name, filters]) => [name, pageSql(filters)]),
) as Record<TicketPageStatement, string>;

/** The statements of {@link TicketListStore}; test/service/query-plans.test.ts checks each one's plan. */
export const TICKET_LIST_SQL = {
  ...PAGE_SQL,
  // A panel account has no game UUID: the name alone says who holds the ticket.
  assign: `UPDATE service_tickets SET assignee_uuid = NULL, assignee_name = @assignee,
      updated_at = max(updated_at, @nowMs)
    WHERE network_id = @networkId AND id = @id`,
  assigneeOf: 'SELECT assignee_name AS assignee FROM service_tickets WHERE network_id = ? AND id = ?',
} as const;

type PageParams = TicketFilter & {
  networkId: number;
  beforeCreatedAt: number;
  beforePosition: number;
  limit: number;
};

/** The staff's list of tickets (newest first, keyset pages, by status, type and assignee) and assignment. */
export class TicketListStore {
  private readonly pageStatements;
  private readonly assignStatement;
  private readonly assigneeStatement;

  constructor(db: Db) {
    this.pageStatements = new Map(
      Object.keys(TICKET_PAGE_FILTERS).map((name) => [
        name as TicketPageStatement,
        db.prepare<PageParams, ListedTicket>(TICKET_LIST_SQL[name as TicketPageStatement]),
      ]),
    );
    this.assignStatement = db.prepare<{ networkId: number; id: string; assignee: string | null; nowMs: number }>(
      TICKET_LIST_SQL.assign,
    );
    this.assigneeStatement = db.prepare<[number, string], { assignee: string | null }>(TICKET_LIST_SQL.assigneeOf);
  }

  page(networkId: number, filter: TicketFilter, after: TicketCursor, limit: number): ListedTicket[] {
    const statement = this.pageStatements.get(ticketPageStatementFor(filter))!;
    return statement.all({
      networkId,
      ...filter,
      beforeCreatedAt: after.createdAt,
      beforePosition: after.position,
      limit,
    });
  }

  /** Assigns the ticket to a staff member (null: nobody); false when the network has no such ticket. */
  assign(networkId: number, id: string, assignee: string | null, nowMs: number): boolean {
    return this.assignStatement.run({ networkId, id, assignee, nowMs }).changes === 1;
  }

  assigneeOf(networkId: number, id: string): string | null {
    return this.assigneeStatement.get(networkId, id)?.assignee ?? null;
  }
}
