import type { FastifyInstance } from 'fastify';
import { acknowledgeNotificationsBody, playerLoginBody } from '../../api/schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { RATE_LIMITED } from '../http/rate-limit.js';
import { parseOrThrow } from '../http/validate.js';

/** Notification acknowledgement (endpoint 8) and the player-login extension. */
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

  app.post('/players/login', async (request) => {
    const caller = callerOf(request);
    const body = parseOrThrow(playerLoginBody, request.body);
    stores.players.save(caller.networkId, body.uuid, body.name);
    return { success: true };
  });
}
