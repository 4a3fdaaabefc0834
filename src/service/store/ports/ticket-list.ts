export type { ListedTicket, TicketCursor, TicketFilter } from '../ticket-list.js';

import type { ListedTicket, TicketCursor, TicketFilter } from '../ticket-list.js';

/** The staff's list of tickets, newest first by keyset, and who a ticket is assigned to. */
export interface TicketListStorePort {
  page(networkId: number, filter: TicketFilter, after: TicketCursor, limit: number): Promise<ListedTicket[]>;
  assign(networkId: number, id: string, assignee: string | null, nowMs: number): Promise<boolean>;
  assigneeOf(networkId: number, id: string): Promise<string | null>;
}
