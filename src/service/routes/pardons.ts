import { z } from 'zod';
import { pardonBody } from '../../contract/schemas.js';
import { auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';
import { storedId } from '../limits.js';
import { pardonPunishment } from '../punishment-actions.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

const idParams = z.object({ punishmentId: storedId });

/**
 * The pardon extension, modelled on the hosted panel's own pardon route:
 * `POST /punishments/{punishmentId}/pardon {issuerName, reason?}`. The punishment becomes
 * `pardoned` (pushed on the stream, visible in `recent`); pardoning it again changes nothing.
 */
export function pardonHandlers(context: ServiceContext): Pick<EndpointHandlers, 'pardonPunishment'> {
  const { stores } = context;
  return {
    pardonPunishment: {
      async handle(request) {
        const caller = callerOf(request);
        const { punishmentId } = parseOrThrow(idParams, request.params, 'path');
        const body = parseOrThrow(pardonBody, request.body);
        if (!(await stores.punishments.find(caller.networkId, punishmentId))) {
          throw notFound(`punishment ${punishmentId} not found`);
        }
        const changed = await pardonPunishment(context, {
          networkId: caller.networkId,
          id: punishmentId,
          issuerName: body.issuerName,
          reason: body.reason ?? '',
          serverId: caller.serverId,
        });
        if (changed) {
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
          message: changed ? `punishment ${punishmentId} pardoned` : `punishment ${punishmentId} was already pardoned`,
        };
      },
    },
  };
}
