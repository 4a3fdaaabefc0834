import type { Reply, Ticket, TicketSummary } from '../../../contract/schemas.js';
import type { NewTicket } from '../ticket-columns.js';
import type { PunishmentTicket, StaffTicketRow, TicketFacts, TicketPunishment } from '../ticket-rows.js';

export type { NewTicket } from '../ticket-columns.js';
export type {
  PunishmentTicket,
  StaffTicketRow,
  TicketFacts,
  TicketPunishment,
  UnrenderableTicketReport,
} from '../ticket-rows.js';

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

export type { ChatLine, Reply, Ticket, TicketSummary } from '../../../contract/schemas.js';

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
  /** Sets the ticket's status (`Open`, `Closed`...); true when it changed. */
  setStatus(networkId: number, id: string, status: string, nowMs: number): Promise<boolean>;
  exists(networkId: number, id: string): Promise<boolean>;
  /** Rejects with UnrenderableDateError (store/dates.ts) when the ticket's own dates cannot be shown. */
  find(networkId: number, id: string): Promise<Ticket | undefined>;
  /** The creator's tickets, newest first, summary form only. */
  byPlayer(networkId: number, creatorUuid: string, limit: number): Promise<TicketSummary[]>;
  /**
   * One page of the network's tickets with this status (as stored: `Open`, `Closed`) and one of
   * these types, newest first (ties by id, descending), and how many match in all.
   */
  page(
    networkId: number,
    filter: { status: string; types: readonly string[] },
    page: { limit: number; offset: number },
  ): Promise<{ total: number; tickets: StaffTicketRow[] }>;
  /**
   * Assigns an open ticket to a staff member unless someone else holds it (atomically); claiming
   * one you hold already is `claimed` again. UUIDs compare without case.
   */
  claim(networkId: number, id: string, staff: { uuid: string; name: string }, nowMs: number): Promise<ClaimOutcome>;
  /** Closes a ticket with an optional reason (atomically); its holder stays, else the closer becomes it. */
  close(
    networkId: number,
    id: string,
    staff: { name: string; reason: string | null },
    nowMs: number,
  ): Promise<CloseOutcome>;
  /**
   * Links a punishment to a ticket of the network (linking again changes nothing); false, and
   * nothing written, when the network has no such ticket.
   */
  linkPunishment(networkId: number, ticketId: string, punishmentId: string, nowMs: number): Promise<boolean>;
  /** The punishments linked to a ticket, oldest link first. */
  punishmentsOf(networkId: number, ticketId: string): Promise<TicketPunishment[]>;
  /** For a player's punishments, the tickets each was linked to (oldest link first, at most `limit`). */
  ticketsOfTarget(networkId: number, targetUuid: string, limit: number): Promise<PunishmentTicket[]>;
}
