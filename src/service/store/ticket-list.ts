import type { Db } from '../../db/open-db.js';

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
const OTHER_FILTERS = `(@type IS NULL OR type = @type) AND (@assignee IS NULL OR coalesce(assignee_name, '') = @assignee)
    AND (created_at, rowid) < (@beforeCreatedAt, @beforePosition)`;

/** The statements of {@link TicketListStore}; test/service/query-plans.test.ts checks each one's plan. */
export const TICKET_LIST_SQL = {
  page: `SELECT ${COLUMNS} FROM service_tickets WHERE network_id = @networkId AND ${OTHER_FILTERS}
    ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
  pageOfStatus: `SELECT ${COLUMNS} FROM service_tickets WHERE network_id = @networkId AND status = @status
    AND ${OTHER_FILTERS} ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
  // A panel account has no game UUID: the name alone says who holds the ticket.
  assign: `UPDATE service_tickets SET assignee_uuid = NULL, assignee_name = @assignee,
      updated_at = max(updated_at, @nowMs)
    WHERE network_id = @networkId AND id = @id`,
  assigneeOf: 'SELECT assignee_name AS assignee FROM service_tickets WHERE network_id = ? AND id = ?',
} as const;

type PageParams = {
  networkId: number;
  type: string | null;
  assignee: string | null;
  beforeCreatedAt: number;
  beforePosition: number;
  limit: number;
};

/** The staff's list of tickets (newest first, keyset pages, by status, type and assignee) and assignment. */
export class TicketListStore {
  private readonly pageStatement;
  private readonly pageOfStatusStatement;
  private readonly assignStatement;
  private readonly assigneeStatement;

  constructor(db: Db) {
    this.pageStatement = db.prepare<PageParams, ListedTicket>(TICKET_LIST_SQL.page);
    this.pageOfStatusStatement = db.prepare<PageParams & { status: string }, ListedTicket>(
      TICKET_LIST_SQL.pageOfStatus,
    );
    this.assignStatement = db.prepare<{ networkId: number; id: string; assignee: string | null; nowMs: number }>(
      TICKET_LIST_SQL.assign,
    );
    this.assigneeStatement = db.prepare<[number, string], { assignee: string | null }>(TICKET_LIST_SQL.assigneeOf);
  }

  page(networkId: number, filter: TicketFilter, after: TicketCursor, limit: number): ListedTicket[] {
    const params = {
      networkId,
      type: filter.type ?? null,
      assignee: filter.assignee ?? null,
      beforeCreatedAt: after.createdAt,
      beforePosition: after.position,
      limit,
    };
    return filter.status === undefined
      ? this.pageStatement.all(params)
      : this.pageOfStatusStatement.all({ ...params, status: filter.status });
  }

  /** Assigns the ticket to a staff member (null: nobody); false when the network has no such ticket. */
  assign(networkId: number, id: string, assignee: string | null, nowMs: number): boolean {
    return this.assignStatement.run({ networkId, id, assignee, nowMs }).changes === 1;
  }

  assigneeOf(networkId: number, id: string): string | null {
    return this.assigneeStatement.get(networkId, id)?.assignee ?? null;
  }
}
