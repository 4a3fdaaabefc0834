import type { FsPlayer, FsServer } from './flying-squid-types.js';
import type { TabListSending } from './player-release.js';

type Writer = Pick<FsPlayer, '_client'>;

/**
 * How joining players show up to each other, fixed in three places where flying-squid gets it
 * wrong when players join together:
 *
 * - A connection becomes an entity of type `player` in `serv.entities` at once, but its UUID is
 *   only set when its login runs, and the host holds the login back during the pre-login check.
 *   Anyone spawning in the meantime was sent that UUID-less entity (`Write error ... Write.UUID`
 *   in `packet_spawn_entity`) and disconnected. The entity now joins `serv.entities` only when
 *   flying-squid spawns it (its first `updateAndSpawn`), with its UUID set.
 * - From 1.20.2 players spawn with the unified `spawn_entity` packet, whose `type` flying-squid
 *   leaves unset for players (clients saw a boat).
 * - The tab list of everyone online was sent to everyone but the newcomer.
 *
 * `sending` runs the tab-list sender (player-release.ts captures what flying-squid starts then).
 */
export function showJoiningPlayersToEachOther(
  serv: FsServer,
  sending: TabListSending = (_newcomer, send) => send(),
): void {
  const playerType = serv.registry.entitiesByName.player?.id;
  // Made here, not in the listener: a function made there would hold that player for ever.
  const sendTabList = (newcomer: FsPlayer) => sending(newcomer, () => sendPlayerList(serv, newcomer));
  serv.on('newPlayer', (player: FsPlayer) => {
    delete serv.entities[player.id];
    const updateAndSpawn = player.updateAndSpawn.bind(player);
    player.updateAndSpawn = () => {
      if (!player.disconnected) serv.entities[player.id] = player;
      updateAndSpawn();
    };
    if (playerType !== undefined) player.entityType = playerType;
    // Each player's plugin setup assigns flying-squid's version again: replace it after that.
    serv._sendPlayerList = sendTabList;
  });
}

function playerInfoEntry(serv: FsServer, player: FsPlayer): Record<string, unknown> {
  if (serv.supportFeature('playerInfoActionIsBitfield')) {
    return {
      uuid: player.uuid,
      player: { name: player.username, properties: player.profileProperties },
      gamemode: player.gameMode,
      latency: player._client.latency,
    };
  }
  return {
    uuid: player.uuid,
    name: player.username,
    properties: player.profileProperties,
    gamemode: player.gameMode,
    ping: player._client.latency,
  };
}

function writePlayerInfo(serv: FsServer, to: Writer, entries: Record<string, unknown>[]): void {
  const action = serv.supportFeature('playerInfoActionIsBitfield') ? { add_player: true } : 'add_player';
  to._client.write('player_info', { action, data: entries });
}

/** The newcomer gets every online player's entry; everyone else gets the newcomer's. */
function sendPlayerList(serv: FsServer, newcomer: FsPlayer): void {
  writePlayerInfo(
    serv,
    newcomer,
    serv.players.map((player) => playerInfoEntry(serv, player)),
  );
  const entry = [playerInfoEntry(serv, newcomer)];
  for (const other of serv.players) if (other !== newcomer) writePlayerInfo(serv, other, entry);
}
