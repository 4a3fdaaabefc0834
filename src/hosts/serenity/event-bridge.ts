import { NetworkBound, type PlayerJoinSignal, type Serenity, WorldEvent } from '@serenityjs/core';
import { DisconnectReason, Packet } from '@serenityjs/protocol';
import { isAcceptedName, plainPlayerText, UNACCEPTED_NAME_MESSAGE } from '../../minecraft/player-text.js';
import type { Logger } from '../../ports/logger.js';
import type { HostRuntime } from '../../runtime/host.js';
import { toSectionCodes } from './bedrock-text.js';
import { clientLanguageOf, rememberClientLanguages } from './client-language.js';
import { shareOperatorRights } from './operator-rights.js';
import { type BedrockPlayerDirectory, knownXuid } from './player-adapter.js';
import { forgetEmptyPermissionMember, forgetStrayStorage } from './player-release.js';
import { holdRestrainedPlayers } from './player-restraint.js';

/**
 * Translates SerenityJS's player lifecycle for the runtime: pre-login (awaited by SerenityJS inside
 * its login handler, before the player is admitted), join (initialised), quit (once, for joined
 * players only: SerenityJS reports a leave twice, and also for refused players), chat and
 * commands (decided by the runtime before SerenityJS acts). A joining op becomes a SerenityJS
 * operator. One listener per event.
 */
export function bridgeSerenityEvents(
  serenity: Serenity,
  runtime: HostRuntime,
  players: BedrockPlayerDirectory,
  logger: Logger,
): void {
  rememberClientLanguages(serenity);
  // SerenityJS has no time limit here and shows a thrown error's text to the player: the
  // runtime's admission bounds the listeners and never rejects.
  const admitOrRefuse = async ({ player }: PlayerJoinSignal): Promise<boolean> => {
    // SerenityJS has just built the player: its stray first storage is still in the spawn chunk.
    forgetStrayStorage(player);
    if (!isAcceptedName(player.username)) {
      player.disconnect(UNACCEPTED_NAME_MESSAGE, DisconnectReason.Kicked);
      return false;
    }
    return runtime.admit(
      {
        uuid: player.uuid,
        name: player.username,
        ip: player.connection.rinfo.address,
        xuid: knownXuid(player.xuid),
        locale: clientLanguageOf(player.connection),
      },
      { refuse: (message) => player.disconnect(toSectionCodes(message), DisconnectReason.Kicked) },
    );
  };
  // The login handler awaits this signal (emitAsync), so an async listener's answer counts,
  // though the emitter's types only admit a boolean.
  serenity.before(WorldEvent.PlayerJoin, admitOrRefuse as unknown as (signal: PlayerJoinSignal) => boolean);

  serenity.on(WorldEvent.PlayerInitialized, ({ player }) => {
    // The UUID is how Bailiff and the service know a Bedrock player: show it to the owner.
    logger.info(`${player.username} joined (uuid ${player.uuid}, xuid ${player.xuid})`);
    shareOperatorRights(player, runtime.permissions);
    runtime.events.join(players.add(player));
  });

  serenity.on(WorldEvent.PlayerLeave, ({ player }) => {
    const left = players.remove(player);
    if (left) runtime.events.quit(left);
    forgetStrayStorage(player);
    forgetEmptyPermissionMember(serenity, player);
  });

  // SerenityJS relays a chat packet as the client wrote it: its text, the author name the client
  // claims and whether it is a translation key. Only the player's own name and plain text go out.
  serenity.network.before(Packet.Text, ({ bound, packet, connection }) => {
    // The same signal fires for what the server sends: only what a client sent is rewritten.
    if (bound !== NetworkBound.Server) return true;
    const player = serenity.getPlayerByConnection(connection);
    if (!player) return false;
    packet.isLocalized = false;
    packet.variant.message = plainPlayerText(packet.variant.message);
    if (packet.variant.source !== null) packet.variant.source = plainPlayerText(player.username);
    packet.variant.parameters = packet.variant.parameters === null ? null : [];
    return true;
  });

  // Synchronous only: SerenityJS ignores a promise returned here. SerenityJS logs only the
  // lines it broadcasts; a blocked one is said as such, never as chat.
  serenity.before(WorldEvent.PlayerChat, ({ player, message }) => {
    const sender = players.get(player);
    if (!sender) return false;
    if (!runtime.events.chat(sender, message).cancelled) return true;
    logger.info(`[muted] ${player.username}: ${message}`);
    return false;
  });

  // SerenityJS has no command event: decide on the request packet, before its command handler.
  serenity.network.before(Packet.CommandRequest, ({ packet, connection }) => {
    const player = serenity.getPlayerByConnection(connection);
    const sender = player && players.get(player);
    if (!sender) return false;
    return runtime.routeCommand(sender, packet.command) === 'host';
  });

  holdRestrainedPlayers(serenity, players);
}
