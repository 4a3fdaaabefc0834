import type { ServiceContext } from '../context.js';
import type { ServiceStoresPorts } from '../store/ports/stores.js';
import type { TicketFacts } from '../store/ports/tickets.js';
import { ticketEvent } from '../webhooks/events.js';
import { recordStaffReply } from './staff-reply.js';

/**
 * Closes a ticket with a staff reply its creator is told in game (a notice, as for any staff
 * reply), and raises `ticket.closed`. A ticket closed already keeps its state and gets no reply.
 * Run inside `storage.transaction`, with its `stores`.
 */
export async function closeTicketWithReply(
  context: Pick<ServiceContext, 'webhooks'>,
  stores: ServiceStoresPorts,
  networkId: number,
  ticket: TicketFacts,
  reply: { id: string; authorName: string; message: string },
  nowMs: number,
): Promise<{ closed: boolean }> {
  const outcome = await stores.tickets.close(
    networkId,
    ticket.id,
    { name: reply.authorName, reason: reply.message },
    nowMs,
  );
  if (outcome.outcome !== 'closed') return { closed: false };
  await recordStaffReply(context, stores, networkId, ticket, reply, nowMs);
  const event = ticketEvent('ticket.closed', ticket, reply.authorName, reply.message, nowMs);
  await context.webhooks.record(networkId, [event], stores);
  return { closed: true };
}
