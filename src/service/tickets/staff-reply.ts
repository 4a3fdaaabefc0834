import type { ServiceContext } from '../context.js';
import { toIso } from '../store/dates.js';
import type { ServiceStoresPorts } from '../store/ports/stores.js';
import type { TicketFacts } from '../store/ports/tickets.js';
import { ticketEvent } from '../webhooks/events.js';

/** How much of a text a notice or a staff list quotes. */
export const EXCERPT_LENGTH = 100;

/** The text on one line, cut to {@link EXCERPT_LENGTH} characters (ending `...` when cut). */
export function excerptOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= EXCERPT_LENGTH ? line : `${line.slice(0, EXCERPT_LENGTH - 3).trimEnd()}...`;
}

/** What the ticket's creator is told in game. */
export function staffReplyNotice(ticketId: string, message: string): string {
  return `Staff replied to your ticket ${ticketId}: ${excerptOf(message)}`;
}

export interface StaffReply {
  id: string;
  authorName: string;
  message: string;
  /** The server the staff member replied from; undefined for the admin API. */
  server?: string;
}

/**
 * Stores a staff member's reply, raises `ticket.replied`, and keeps a notice for the ticket's
 * creator (its id is the reply's), listed for servers to show at once and by the login check
 * until acknowledged. Run inside `storage.transaction`, with its `stores`.
 */
export async function recordStaffReply(
  context: Pick<ServiceContext, 'webhooks'>,
  stores: ServiceStoresPorts,
  networkId: number,
  ticket: TicketFacts,
  reply: StaffReply,
  nowMs: number,
): Promise<{ notice: string }> {
  await stores.tickets.saveReply(networkId, ticket.id, {
    id: reply.id,
    authorName: reply.authorName,
    message: reply.message,
    createdAt: toIso(nowMs, 'createdAt'),
  });
  const notice = staffReplyNotice(ticket.id, reply.message);
  await stores.notifications.createWithText(
    networkId,
    { id: reply.id, playerUuid: ticket.creatorUuid, message: notice },
    nowMs,
  );
  const facts = reply.server === undefined ? ticket : { ...ticket, server: reply.server };
  const event = ticketEvent('ticket.replied', facts, reply.authorName, reply.message, nowMs);
  await context.webhooks.record(networkId, [event], stores);
  return { notice };
}
