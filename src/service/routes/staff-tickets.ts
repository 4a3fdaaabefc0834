import { z } from 'zod';
import {
  claimTicketBody,
  closeTicketBody,
  DEFAULT_TICKET_PAGE_SIZE,
  REPORT_TICKET_TYPES,
  type StaffActionResponse,
  type StaffReplyResponse,
  staffReplyBody,
  type TicketListResponse,
  ticketListQuery,
} from '../../contract/staff-ticket-schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { HttpError, notFound } from '../http/errors.js';
import { integerFromQuery, parseOrThrow } from '../http/validate.js';
import { storedId } from '../limits.js';
import { toIso } from '../store/dates.js';
import { CLOSED_STATUS, OPEN_STATUS } from '../store/ports/tickets.js';
import { excerptOf, recordStaffReply } from '../tickets/staff-reply.js';
import { ticketEvent } from '../webhooks/events.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

const ticketParams = z.object({ id: storedId });
const listQueryFromUrl = z.preprocess(
  (query) =>
    Object.fromEntries(
      Object.entries(query as Record<string, unknown>).map(([key, value]) =>
        key === 'page' || key === 'pageSize' ? [key, integerFromQuery(value)] : [key, value],
      ),
    ),
  ticketListQuery,
);
const STORED_STATUS = { open: OPEN_STATUS, closed: CLOSED_STATUS } as const;

const conflict = (message: string, extra?: Record<string, unknown>) => new HttpError(409, message, extra);

/** The answer of a claim or close that went through: the ticket's state after it. */
const actionDone = (
  ticketId: string,
  ticketStatus: string,
  assigneeName: string | null,
  message: string,
): StaffActionResponse => ({ status: 200, success: true, ticketId, ticketStatus, assigneeName, message });

/**
 * The staff ticket extension: a server's staff, through the server's key, list the network's
 * reports, claim one (one holder at a time), close it and reply to its creator, who is told in game.
 */
export function staffTicketHandlers(
  context: ServiceContext,
): Pick<EndpointHandlers, 'listTickets' | 'claimTicket' | 'closeTicket' | 'staffReplyToTicket'> {
  const { storage, stores, clock, ids, webhooks } = context;

  return {
    listTickets: {
      rateLimited: true,
      async handle(request): Promise<TicketListResponse> {
        const caller = callerOf(request);
        const query = parseOrThrow(listQueryFromUrl, request.query, 'query');
        const page = query.page ?? 1;
        const pageSize = query.pageSize ?? DEFAULT_TICKET_PAGE_SIZE;
        const types = query.type === undefined ? REPORT_TICKET_TYPES : [...new Set(query.type.split(','))];
        const { total, tickets } = await stores.tickets.page(
          caller.networkId,
          { status: STORED_STATUS[query.status ?? 'open'], types },
          { limit: pageSize, offset: (page - 1) * pageSize },
        );
        const shown = tickets.map(({ description, ...ticket }) => ({ ...ticket, excerpt: excerptOf(description) }));
        return { success: true, page, pageSize, total, tickets: shown };
      },
    },
    claimTicket: {
      async handle(request): Promise<StaffActionResponse> {
        const caller = callerOf(request);
        const { id } = parseOrThrow(ticketParams, request.params, 'path');
        const body = parseOrThrow(claimTicketBody, request.body);
        const claimed = await stores.tickets.claim(
          caller.networkId,
          id,
          { uuid: body.staffUuid, name: body.staffName },
          clock.now(),
        );
        switch (claimed.outcome) {
          case 'missing':
            throw notFound(`ticket ${id} not found`);
          case 'closed':
            throw conflict(`ticket ${id} is closed`);
          case 'held':
            throw conflict(`ticket ${id} is claimed by ${claimed.assigneeName}`, {
              assigneeName: claimed.assigneeName,
            });
          default:
            return actionDone(id, OPEN_STATUS, claimed.assigneeName, `ticket ${id} claimed by ${claimed.assigneeName}`);
        }
      },
    },
    closeTicket: {
      async handle(request): Promise<StaffActionResponse> {
        const caller = callerOf(request);
        const { id } = parseOrThrow(ticketParams, request.params, 'path');
        const body = parseOrThrow(closeTicketBody, request.body);
        const nowMs = clock.now();
        const closed = await storage.transaction(async (stores) => {
          const outcome = await stores.tickets.close(
            caller.networkId,
            id,
            { name: body.staffName, reason: body.reason ?? null },
            nowMs,
          );
          const facts = outcome.outcome === 'closed' ? await stores.tickets.factsOf(caller.networkId, id) : undefined;
          if (facts) {
            const event = ticketEvent(
              'ticket.closed',
              { ...facts, server: caller.serverName },
              body.staffName,
              body.reason ?? facts.subject,
              nowMs,
            );
            await webhooks.record(caller.networkId, [event], stores);
          }
          return outcome;
        });
        if (closed.outcome === 'missing') throw notFound(`ticket ${id} not found`);
        if (closed.outcome === 'already-closed') throw conflict(`ticket ${id} is already closed`);
        return actionDone(id, CLOSED_STATUS, closed.assigneeName, `ticket ${id} closed by ${body.staffName}`);
      },
    },
    staffReplyToTicket: {
      async handle(request): Promise<StaffReplyResponse> {
        const caller = callerOf(request);
        const { id } = parseOrThrow(ticketParams, request.params, 'path');
        const body = parseOrThrow(staffReplyBody, request.body);
        const facts = await stores.tickets.factsOf(caller.networkId, id);
        if (!facts) throw notFound(`ticket ${id} not found`);
        const nowMs = clock.now();
        const replyId = ids();
        const reply = { id: replyId, authorName: body.staffName, message: body.message, server: caller.serverName };
        const { notice } = await storage.transaction((stores) =>
          recordStaffReply(context, stores, caller.networkId, facts, reply, nowMs),
        );
        return {
          status: 200,
          success: true,
          replyId,
          creatorUuid: facts.creatorUuid,
          notificationId: replyId,
          notification: notice,
          createdAt: toIso(nowMs, 'createdAt'),
          message: `reply ${replyId} added to ticket ${id}`,
        };
      },
    },
  };
}
