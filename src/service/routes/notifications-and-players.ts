import type { FastifyInstance } from 'fastify';
import { acknowledgeNotificationsBody } from '../../api/schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { RATE_LIMITED } from '../http/rate-limit.js';
import { parseOrThrow } from '../http/validate.js';

/** Notification acknowledgement (endpoint 8); the player login extensions live in player-login.ts. */
export function registerNotificationsAndPlayers(app: FastifyInstance, context: ServiceContext): void {
  const { stores, clock } = context;

  app.post('/notifications/acknowledge', RATE_LIMITED, async (request) => {
    const caller = callerOf(request);
    const body = parseOrThrow(acknowledgeNotificationsBody, request.body);
    const at = body.acknowledgedAt === undefined ? clock.now() : Date.parse(body.acknowledgedAt);
    const { known, unknown } = stores.notifications.acknowledge(
      caller.networkId,
      body.playerUuid,
      body.notificationIds,
      at,
    );
    return { success: true, message: `${known} acknowledged, ${unknown} unknown` };
  });
}
