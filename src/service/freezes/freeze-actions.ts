import { type FrozenPlayer, MAX_FROZEN_PLAYERS } from '../../contract/freeze-schemas.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import type { Freeze } from '../store/ports/freezes.js';

/** What a freeze asks for: the API gives the server its key belongs to, the panel none. */
export interface FreezeRequest {
  networkId: number;
  playerUuid: string;
  playerName: string;
  issuerName: string;
  reason: string;
  serverName: string | null;
}

export const frozenPlayerOf = (freeze: Freeze): FrozenPlayer => ({
  playerUuid: freeze.playerUuid,
  playerName: freeze.playerName,
  reason: freeze.reason,
  issuerName: freeze.issuerName,
  serverName: freeze.serverName,
  frozenAt: new Date(freeze.frozenAt).toISOString(),
});

/**
 * Freezes a player in the network (kept until unfrozen); a player frozen already keeps their first
 * freeze. Refused (409) when the network has {@link MAX_FROZEN_PLAYERS} frozen already.
 */
export async function freezePlayer(
  context: Pick<ServiceContext, 'storage' | 'clock'>,
  request: FreezeRequest,
): Promise<{ outcome: 'frozen' | 'already-frozen'; freeze: Freeze }> {
  const playerUuid = request.playerUuid.toLowerCase();
  return context.storage.transaction(async (stores) => {
    const existing = await stores.freezes.find(request.networkId, playerUuid);
    if (existing) return { outcome: 'already-frozen' as const, freeze: existing };
    if ((await stores.freezes.count(request.networkId)) >= MAX_FROZEN_PLAYERS) {
      throw new HttpError(409, `the network has ${MAX_FROZEN_PLAYERS} frozen players: unfreeze one first`);
    }
    const freeze: Freeze = { ...request, playerUuid, frozenAt: context.clock.now() };
    if (!(await stores.freezes.freeze(freeze))) {
      const raced = await stores.freezes.find(request.networkId, playerUuid);
      if (raced) return { outcome: 'already-frozen' as const, freeze: raced };
    }
    return { outcome: 'frozen' as const, freeze };
  });
}
