import { NetworkBound, type Serenity } from '@serenityjs/core';
import { Packet } from '@serenityjs/protocol';
import type { BedrockPlayerDirectory } from './player-adapter.js';

/** Below this, a reported position is where the server has the player (float noise). */
const SAME_POSITION = 1e-3;

/** Packets of a held player dropped: item use (on blocks and entities), inventory and container moves, interactions, picks. */
const DROPPED_WHILE_HELD = [
  Packet.InventoryTransaction,
  Packet.ItemStackRequest,
  Packet.Interact,
  Packet.BlockPickRequest,
  Packet.EntityPickRequest,
  Packet.BlockActorData,
] as const;

/**
 * Holds restrained players in place (see `Player.restrain`): SerenityJS decides movement on the
 * client's input packet, which also carries block breaking and inventory requests; a held
 * player's input is dropped whole, and a move in it answered with a teleport to where the server
 * has them. One listener per packet, deciding for every player.
 */
export function holdRestrainedPlayers(serenity: Serenity, players: BedrockPlayerDirectory): void {
  const heldPlayerOf = (connection: Parameters<Serenity['getPlayerByConnection']>[0]) => {
    const player = serenity.getPlayerByConnection(connection);
    return player && players.isRestrained(player) ? player : undefined;
  };
  serenity.network.before(Packet.PlayerAuthInput, ({ packet, connection }) => {
    const player = heldPlayerOf(connection);
    if (!player) return true;
    const at = player.position;
    const moved =
      Math.abs(packet.position.x - at.x) > SAME_POSITION ||
      Math.abs(packet.position.y - player.getCollisionHeight() - at.y) > SAME_POSITION ||
      Math.abs(packet.position.z - at.z) > SAME_POSITION;
    if (moved) void player.teleport(at);
    return false;
  });
  for (const packet of DROPPED_WHILE_HELD) {
    serenity.network.before(
      packet,
      ({ bound, connection }) => bound !== NetworkBound.Server || !heldPlayerOf(connection),
    );
  }
}
