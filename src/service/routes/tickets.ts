import { z } from 'zod';
import { type Ticket, uuid } from '../../contract/schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';
import { storedId } from '../limits.js';
import { UnrenderableDateError } from '../store/dates.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

/** Contract limit of a player's ticket list. */
export const PLAYER_TICKETS_MAX_RESULTS = 50;

const ticketParams = z.object({ id: storedId });
const ticketQuery = z.object({ readerUuid: uuid.optional() });
const playerParams = z.object({ uuid });

function sameUuid(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Ticket reads: endpoints 9 and 10. */
export function ticketHandlers(context: ServiceContext): Pick<EndpointHandlers, 'getTicket' | 'getPlayerTickets'> {
  const { tickets } = context.stores;
  return {
    getTicket: {
      rateLimited: true,
      async handle(request) {
        const caller = callerOf(request);
        const { id } = parseOrThrow(ticketParams, request.params, 'path');
        const { readerUuid } = parseOrThrow(ticketQuery, request.query, 'query');
        let ticket: Ticket | undefined;
        try {
          ticket = await tickets.find(caller.networkId, id);
        } catch (error) {
          if (!(error instanceof UnrenderableDateError)) throw error;
          context.logger.error('ticket row cannot be rendered', {
            networkId: caller.networkId,
            ticketId: id,
            problem: error.message,
          });
          // The contract's statuses for this read are 400/401/404/429/500; it cannot be shown, so it is answered as absent.
          throw notFound(`ticket ${id} cannot be shown: its stored ${error.field} is outside the range of a date`);
        }
        // Another player's ticket is answered as no ticket at all: a reader learns nothing from guessing ids.
        const isReadable = ticket && (readerUuid === undefined || sameUuid(ticket.creatorUuid, readerUuid));
        if (!ticket || !isReadable) throw notFound(`ticket ${id} not found`);
        return { ticket };
      },
    },
    getPlayerTickets: {
      rateLimited: true,
      async handle(request) {
        const caller = callerOf(request);
        const params = parseOrThrow(playerParams, request.params, 'path');
        return { tickets: await tickets.byPlayer(caller.networkId, params.uuid, PLAYER_TICKETS_MAX_RESULTS) };
      },
    },
  };
}
