import { z } from 'zod';
import { createTicketBody, ticketReplyBody } from '../../contract/schemas.js';
import { auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { idempotentCreations } from '../http/idempotency.js';
import { parseOrThrow } from '../http/validate.js';
import { storedId } from '../limits.js';
import { toIso } from '../store/dates.js';
import { chatLinesOf } from '../tickets/chat-lines.js';
import { ticketCreatedEvents, ticketEvent } from '../webhooks/events.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

const ticketParams = z.object({ id: storedId });

/**
 * The ticket creation extension: a player opens a ticket, and replies to their own. Both honour
 * `Idempotency-Key` (the key answers the id it created) and spend the key's write bucket.
 */
export function ticketWriteHandlers(context: ServiceContext): Pick<EndpointHandlers, 'createTicket' | 'replyToTicket'> {
  const { clock, ids, webhooks } = context;
  const createOnce = idempotentCreations(context);

  return {
    createTicket: {
      async handle(request, reply) {
        const caller = callerOf(request);
        const body = parseOrThrow(createTicketBody, request.body);
        const ticketId = await createOnce(request, reply, caller.networkId, async (stores) => {
          const id = ids();
          const nowMs = clock.now();
          const ticket = {
            id,
            type: body.type,
            subject: body.subject,
            description: body.description,
            priority: body.priority ?? 'normal',
            creatorUuid: body.creatorUuid,
            creatorName: body.creatorName,
            reportedPlayerUuid: body.reportedPlayerUuid ?? null,
            reportedPlayerName: body.reportedPlayerName ?? null,
            tags: body.tags ?? [],
            createdServer: body.createdServer ?? caller.serverName,
            replayUrl: body.replayUrl ?? null,
            chatMessages: chatLinesOf(body.chatMessages ?? [], {
              playerName: body.reportedPlayerName ?? body.creatorName,
              receivedAtMs: nowMs,
            }),
            createdAtMs: nowMs,
          };
          await stores.tickets.create(caller.networkId, ticket);
          await webhooks.record(
            caller.networkId,
            ticketCreatedEvents({ ...ticket, server: ticket.createdServer }, ticket.description, nowMs),
            stores,
          );
          const audited = { networkId: caller.networkId, via: 'api', server: caller.serverName } as const;
          const detail = { type: body.type };
          await auditApiAction(
            context,
            { ...audited, actor: body.creatorName, action: 'ticket.create', subject: id, detail },
            stores,
          );
          return id;
        });
        return { status: 200, success: true, ticketId, message: `ticket ${ticketId} created` };
      },
    },
    replyToTicket: {
      async handle(request, reply) {
        const caller = callerOf(request);
        const { id } = parseOrThrow(ticketParams, request.params, 'path');
        const body = parseOrThrow(ticketReplyBody, request.body);
        const replyId = await createOnce(request, reply, caller.networkId, async (stores) => {
          const facts = await stores.tickets.factsOf(caller.networkId, id);
          // Someone else's ticket is answered as a missing one, so ids cannot be probed.
          if (!facts || facts.creatorUuid !== body.playerUuid.toLowerCase()) throw notFound(`ticket ${id} not found`);
          const nowMs = clock.now();
          const replyIdCreated = ids();
          await stores.tickets.saveReply(caller.networkId, id, {
            id: replyIdCreated,
            authorName: body.playerName,
            message: body.message,
            createdAt: toIso(nowMs, 'createdAt'),
          });
          const event = ticketEvent(
            'ticket.replied',
            { ...facts, server: caller.serverName },
            body.playerName,
            body.message,
            nowMs,
          );
          await webhooks.record(caller.networkId, [event], stores);
          await auditApiAction(
            context,
            {
              networkId: caller.networkId,
              via: 'api',
              actor: body.playerName,
              action: 'ticket.reply',
              subject: id,
              server: caller.serverName,
            },
            stores,
          );
          return replyIdCreated;
        });
        return { status: 200, success: true, replyId, message: `reply ${replyId} added to ticket ${id}` };
      },
    },
  };
}
