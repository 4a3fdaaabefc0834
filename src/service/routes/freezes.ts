import { z } from 'zod';
import {
  type FreezeResponse,
  type FrozenPlayersResponse,
  freezePlayerBody,
  MAX_FROZEN_PLAYERS,
  type UnfreezeResponse,
  unfreezePlayerBody,
} from '../../contract/freeze-schemas.js';
import { uuid } from '../../contract/schemas.js';
import { auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { freezePlayer, frozenPlayerOf } from '../freezes/freeze-actions.js';
import { callerOf } from '../http/auth.js';
import { parseOrThrow } from '../http/validate.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

const playerParams = z.object({ uuid });

/**
 * The freeze extension: `POST players/{uuid}/freeze {playerName, issuerName, reason?}`,
 * `POST players/{uuid}/unfreeze {issuerName}` and `GET freezes` (every frozen player of the
 * network, which game servers poll so a freeze follows the player). Every outcome is a 200.
 */
export function freezeHandlers(
  context: ServiceContext,
): Pick<EndpointHandlers, 'freezePlayer' | 'unfreezePlayer' | 'frozenPlayers'> {
  return {
    freezePlayer: {
      async handle(request): Promise<FreezeResponse> {
        const caller = callerOf(request);
        const { uuid: playerUuid } = parseOrThrow(playerParams, request.params, 'path');
        const body = parseOrThrow(freezePlayerBody, request.body);
        const { outcome, freeze } = await freezePlayer(context, {
          networkId: caller.networkId,
          playerUuid,
          playerName: body.playerName,
          issuerName: body.issuerName,
          reason: body.reason ?? '',
          serverName: caller.serverName,
        });
        if (outcome === 'frozen') {
          await auditApiAction(context, {
            networkId: caller.networkId,
            via: 'api',
            actor: body.issuerName,
            action: 'player.freeze',
            subject: freeze.playerUuid,
            server: caller.serverName,
            detail: { playerName: freeze.playerName, reason: freeze.reason },
          });
        }
        return { success: true, outcome, freeze: frozenPlayerOf(freeze) };
      },
    },
    unfreezePlayer: {
      async handle(request): Promise<UnfreezeResponse> {
        const caller = callerOf(request);
        const { uuid: playerUuid } = parseOrThrow(playerParams, request.params, 'path');
        const body = parseOrThrow(unfreezePlayerBody, request.body);
        const unfrozen = await context.stores.freezes.unfreeze(caller.networkId, playerUuid);
        if (unfrozen) {
          await auditApiAction(context, {
            networkId: caller.networkId,
            via: 'api',
            actor: body.issuerName,
            action: 'player.unfreeze',
            subject: playerUuid.toLowerCase(),
            server: caller.serverName,
          });
        }
        return { success: true, outcome: unfrozen ? 'unfrozen' : 'not-frozen' };
      },
    },
    frozenPlayers: {
      async handle(request): Promise<FrozenPlayersResponse> {
        const caller = callerOf(request);
        const frozen = await context.stores.freezes.list(caller.networkId, MAX_FROZEN_PLAYERS);
        return { success: true, players: frozen.map(frozenPlayerOf) };
      },
    },
  };
}
