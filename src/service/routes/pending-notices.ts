import { z } from 'zod';
import {
  MAX_NOTICE_PAGE_SIZE,
  type PendingNoticesResponse,
  pendingNoticesQuery,
} from '../../contract/staff-ticket-schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { integerFromQuery, parseOrThrow } from '../http/validate.js';
import { isDateMs, toIso } from '../store/dates.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

const queryFromUrl = z.preprocess(
  (query) =>
    Object.fromEntries(
      Object.entries(query as Record<string, unknown>).map(([key, value]) =>
        key === 'limit' ? [key, integerFromQuery(value)] : [key, value],
      ),
    ),
  pendingNoticesQuery,
);

/**
 * The network's unread notices that carry their own text (staff replies), oldest first from
 * `since`: each server polls it to show them at once to players online there, wherever the reply
 * was written. Players who are away get them from the login check at their next join.
 */
export function pendingNoticeHandlers(context: ServiceContext): Pick<EndpointHandlers, 'pendingNotices'> {
  const { stores } = context;
  return {
    pendingNotices: {
      rateLimited: true,
      async handle(request): Promise<PendingNoticesResponse> {
        const caller = callerOf(request);
        const query = parseOrThrow(queryFromUrl, request.query, 'query');
        const rows = await stores.notifications.unreadTextSince(
          caller.networkId,
          Date.parse(query.since),
          query.limit ?? MAX_NOTICE_PAGE_SIZE,
        );
        return {
          success: true,
          notifications: rows
            .filter((row) => isDateMs(row.created_at))
            .map((row) => ({
              id: row.id,
              playerUuid: row.player_uuid,
              message: row.message,
              type: 'ticket-reply',
              createdAt: toIso(row.created_at),
            })),
        };
      },
    },
  };
}
