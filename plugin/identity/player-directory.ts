import type { Players } from '../../src/runtime/plugin-api.js';
import type { PlayerStore } from '../cache/player-store.js';
import type { PlayerDirectory } from './known-player.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Online players first, then the players this server has seen. */
export function playerDirectory(players: Players, seen: PlayerStore): PlayerDirectory {
  return {
    resolve(nameOrUuid) {
      const isUuid = UUID.test(nameOrUuid);
      const online = isUuid ? players.byUuid(nameOrUuid.toLowerCase()) : players.byName(nameOrUuid);
      if (online) return { uuid: online.uuid.toLowerCase(), name: online.name };
      const known = isUuid ? seen.byUuid(nameOrUuid) : seen.byName(nameOrUuid);
      return known ? { uuid: known.uuid, name: known.name } : undefined;
    },
  };
}
