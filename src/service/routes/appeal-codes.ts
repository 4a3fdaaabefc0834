import { type AppealCodeResponse, appealCodeBody } from '../../contract/appeal-code-schemas.js';
import { issueAppealCode } from '../appeals/issue-appeal-code.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { parseOrThrow } from '../http/validate.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

/**
 * The appeal code extension: `POST /appeals/code` with `{punishmentId, playerUuid, playerName,
 * ipAddress?}` gives a game server a one-time code its player types into the appeal form. Every
 * outcome (issued, unappealable, open appeal, cooldown, inactive, not found) is a 200, so a 404
 * always means the route is not offered.
 */
export function appealCodeHandlers(context: ServiceContext): Pick<EndpointHandlers, 'appealCode'> {
  return {
    appealCode: {
      async handle(request): Promise<AppealCodeResponse> {
        const caller = callerOf(request);
        const body = parseOrThrow(appealCodeBody, request.body);
        return issueAppealCode(context, caller.networkId, body);
      },
    },
  };
}
