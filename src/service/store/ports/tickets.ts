export type { ChatLine, Reply, Ticket, TicketSummary } from '../../../contract/schemas.js';
export type { NewTicket, TicketFacts, UnrenderableTicketReport } from '../tickets.js';

import type { Reply, Ticket, TicketSummary } from '../../../contract/schemas.js';
import type { NewTicket, TicketFacts } from '../tickets.js';

/**
 * Tickets come from the admin API or a seed; the contract only reads them. A row whose date
 * cannot be shown is left out of lists (a reply, of its ticket) and reported, never a 500.
 */
export interface TicketStorePort {
  /** Stores a ticket opened by a player, status `Open`, without replies. */
  create(networkId: number, ticket: NewTicket): Promise<void>;
  /** What events and ownership checks need of a ticket; undefined when the network has no such ticket. */
  factsOf(networkId: number, id: string): Promise<TicketFacts | undefined>;
  /** Creates or replaces the ticket and its listed replies, atomically. */
  save(networkId: number, ticket: Ticket): Promise<void>;
  /** Creates or replaces a reply; the ticket's `updatedAt` moves up to the reply's date. */
  saveReply(networkId: number, ticketId: string, reply: Reply): Promise<void>;
  exists(networkId: number, id: string): Promise<boolean>;
  /** Rejects with UnrenderableDateError (store/dates.ts) when the ticket's own dates cannot be shown. */
  find(networkId: number, id: string): Promise<Ticket | undefined>;
  /** The creator's tickets, newest first, summary form only. */
  byPlayer(networkId: number, creatorUuid: string, limit: number): Promise<TicketSummary[]>;
}
