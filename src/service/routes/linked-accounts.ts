import { z } from 'zod';
import { type LinkedAccountsResponse, linkedAccountsQuery, uuid } from '../../contract/schemas.js';
import type { ServiceContext } from '../context.js';
import { linkedAccounts } from '../evasion/linked-accounts.js';
import { callerOf } from '../http/auth.js';
import { integerFromQuery, parseOrThrow } from '../http/validate.js';
import { toIso } from '../store/dates.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

export const DEFAULT_LINKED_PAGE_SIZE = 20;

const params = z.object({ uuid });
const queryFromUrl = z.preprocess(
  (query) =>
    Object.fromEntries(
      Object.entries(query as Record<string, unknown>).map(([key, value]) => [key, integerFromQuery(value)]),
    ),
  linkedAccountsQuery,
);

/**
 * The linked accounts extension, modelled on the hosted panel's alt lookup:
 * `GET /players/{uuid}/linked?page=&pageSize=`. Accounts sharing an address with the player (within
 * the link expiry, on addresses under the shared-address threshold), the shared addresses with when
 * each account was last seen there, and each account's active punishments; most recent first. A
 * player the service never saw has none (200), so a 404 always means the route is not offered.
 */
export function linkedAccountHandlers(context: ServiceContext): Pick<EndpointHandlers, 'linkedAccounts'> {
  const { stores, clock, render } = context;
  return {
    linkedAccounts: {
      rateLimited: true,
      async handle(request): Promise<LinkedAccountsResponse> {
        const caller = callerOf(request);
        const player = parseOrThrow(params, request.params, 'path').uuid.toLowerCase();
        const query = parseOrThrow(queryFromUrl, request.query, 'query');
        const page = query.page ?? 1;
        const pageSize = query.pageSize ?? DEFAULT_LINKED_PAGE_SIZE;
        const all = await linkedAccounts(stores, context.evasion, caller.networkId, player, clock.now());
        const accounts = [];
        for (const account of all.slice((page - 1) * pageSize, page * pageSize)) {
          accounts.push({
            uuid: account.uuid,
            name: (await stores.players.findName(caller.networkId, account.uuid)) ?? '',
            sharedIps: account.sharedIps.map((shared) => ({
              ipAddress: shared.ip,
              lastSeenAt: toIso(shared.lastSeenAt),
            })),
            activePunishments: render.list(await stores.punishments.activeFor(caller.networkId, account.uuid)),
          });
        }
        return { success: true, page, pageSize, total: all.length, accounts };
      },
    },
  };
}
