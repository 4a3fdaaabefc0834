import { acknowledgeNotificationsBody } from '../../contract/schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { parseOrThrow } from '../http/validate.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

/** Notification acknowledgement (endpoint 8); the player login extensions live in player-login.ts. */
export function notificationHandlers(context: ServiceContext): Pick<EndpointHandlers, 'acknowledgeNotifications'> {
  const { stores, clock } = context;
  return {
    acknowledgeNotifications: {
      rateLimited: true,
      async handle(request) {
        const caller = callerOf(request);
        const body = parseOrThrow(acknowledgeNotificationsBody, request.body);
        const at = body.acknowledgedAt === undefined ? clock.now() : Date.parse(body.acknowledgedAt);
        const { known, unknown } = await stores.notifications.acknowledge(
          caller.networkId,
          body.playerUuid,
          body.notificationIds,
          at,
        );
        return { success: true, message: `${known} acknowledged, ${unknown} unknown` };
      },
    },
  };
}
