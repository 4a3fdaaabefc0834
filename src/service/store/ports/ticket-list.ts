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

/** The staff's list of tickets, newest first by keyset, and who a ticket is assigned to. */
export interface TicketListStorePort {
  page(networkId: number, filter: TicketFilter, after: TicketCursor, limit: number): Promise<ListedTicket[]>;
  assign(networkId: number, id: string, assignee: string | null, nowMs: number): Promise<boolean>;
  assigneeOf(networkId: number, id: string): Promise<string | null>;
}
