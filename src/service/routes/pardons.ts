import { z } from 'zod';
import { pardonBody } from '../../contract/schemas.js';
import { auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { idempotentCreations } from '../http/idempotency.js';
import { parseOrThrow } from '../http/validate.js';
import { storedId } from '../limits.js';
import { pardonWithin, publishChanges } from '../punishment-actions.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

const idParams = z.object({ punishmentId: storedId });
/** What a pardon under a key records as its outcome (the key store keeps one text per key). */
const PARDONED = 'pardoned';
const UNCHANGED = 'already-pardoned';

/**
 * The pardon extension, modelled on the hosted panel's own pardon route:
 * `POST /punishments/{punishmentId}/pardon {issuerName, reason?}`. The punishment becomes
 * `pardoned` (pushed on the stream, visible in `recent`); pardoning it again changes nothing.
 * With an `Idempotency-Key`, a repeat answers the first pardon's outcome (`Idempotent-Replayed`).
 */
export function pardonHandlers(context: ServiceContext): Pick<EndpointHandlers, 'pardonPunishment'> {
  const createOnce = idempotentCreations(context);
  return {
    pardonPunishment: {
      async handle(request, reply) {
        const caller = callerOf(request);
        const { punishmentId } = parseOrThrow(idParams, request.params, 'path');
        const body = parseOrThrow(pardonBody, request.body);
        let changedIds: string[] = [];
        // The key answers the punishment's id: the first request's outcome is what it changed.
        const outcome = await createOnce(
          request,
          reply,
          caller.networkId,
          async (stores) => {
            if (!(await stores.punishments.find(caller.networkId, punishmentId))) {
              throw notFound(`punishment ${punishmentId} not found`);
            }
            changedIds = await pardonWithin(context, stores, {
              networkId: caller.networkId,
              id: punishmentId,
              issuerName: body.issuerName,
              reason: body.reason ?? '',
              serverId: caller.serverId,
            });
            return changedIds.length > 0 ? PARDONED : UNCHANGED;
          },
          { scope: `pardon:${punishmentId}` },
        );
        await publishChanges(context, caller.networkId, changedIds);
        if (changedIds.length > 0) {
          await auditApiAction(context, {
            networkId: caller.networkId,
            via: 'api',
            actor: body.issuerName,
            action: 'punishment.pardon',
            subject: punishmentId,
            server: caller.serverName,
            detail: { reason: body.reason ?? '' },
          });
        }
        return {
          success: true,
          message:
            outcome === PARDONED
              ? `punishment ${punishmentId} pardoned`
              : `punishment ${punishmentId} was already pardoned`,
        };
      },
    },
  };
}
