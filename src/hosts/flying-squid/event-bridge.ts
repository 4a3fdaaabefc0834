import { isAcceptedName, plainPlayerText, UNACCEPTED_NAME_MESSAGE } from '../../minecraft/player-text.js';
import type { Logger } from '../../ports/logger.js';
import type { HostRuntime } from '../../runtime/host.js';
import { kickWithMessage } from './chat-components.js';
import { followClientLocale } from './client-locale.js';
import type { FsClient, FsPlayer, FsServer } from './flying-squid-types.js';
import { takeOverPlayerChat } from './plain-chat.js';
import type { PlayerDirectory } from './player-adapter.js';
import { bridgeTabCompletion } from './tab-completion.js';

type CancelBehavior = (triggerCancelBehavior?: boolean, hideFromPlugins?: boolean) => void;

/**
 * Translates flying-squid's player lifecycle for the runtime: pre-login (before the player is added
 * anywhere), join, quit, chat and commands (decided by the runtime before flying-squid acts).
 */
export function bridgeEvents(serv: FsServer, runtime: HostRuntime, players: PlayerDirectory, logger: Logger): void {
  serv._server?.on('connection', (client: FsClient) => followClientLocale(client));
  serv.on('newPlayer', (player: FsPlayer) => {
    const originalLogin = player.login.bind(player);
    const originalSave = player.save.bind(player);
    // Until admitted the player must look gone to flying-squid: its disconnect handler would
    // otherwise announce a nameless player to everyone and save an empty player file.
    let pending = true;
    let closed = false;
    player.disconnected = true;
    player.save = async () => {};
    followClientLocale(player._client);
    player._client.once('end', () => {
      closed = true;
      if (!pending) return;
      delete serv.entities[player.id];
      logger.info(`connection of ${player._client.username} closed before admission`);
    });
    // flying-squid awaits player.login() right after 'newPlayer'. Deciding here, before the
    // original login runs, means a refused player is never added to the player list.
    player.login = async () => {
      const { uuid, username } = player._client;
      if (!isAcceptedName(username)) {
        logger.info(`refused a connection named ${JSON.stringify(plainPlayerText(username))}: not a name`);
        kickWithMessage(serv, player, UNACCEPTED_NAME_MESSAGE);
        return;
      }
      const admitted = await runtime.admit(
        { uuid, name: username, ip: clientAddress(player._client) },
        { refuse: (message) => kickWithMessage(serv, player, message), isOpen: () => !closed },
      );
      if (!admitted) return;
      pending = false;
      player.disconnected = false;
      player.save = originalSave;
      await originalLogin();
    };

    bridgeTabCompletion(serv, runtime, players, player, logger);

    let joined = false;
    player.once('spawned', () => {
      joined = true;
      // The UUID is how Bailiff and the service know the player: show it to the owner.
      logger.info(`${player._client.username} joined (uuid ${player._client.uuid})`);
      runtime.events.join(players.adapt(player));
    });
    player.once('disconnected', () => {
      if (joined) runtime.events.quit(players.adapt(player));
    });

    const plainChat = takeOverPlayerChat(serv, player);
    player.on('chat_cancel', (data: { message: string }, cancel: CancelBehavior) => {
      if (runtime.events.chat(players.adapt(player), data.message).cancelled) {
        cancel();
        plainChat.onBlocked(data.message);
      } else plainChat.onAllowed(data, cancel);
    });

    // A vetoed command or a plugin's: flying-squid must not also run it (or answer "Command not found").
    player.on('command_cancel', (data: { command: string }, cancel: CancelBehavior) => {
      if (runtime.routeCommand(players.adapt(player), data.command) !== 'host') cancel();
    });
  });
}

/** The client's IP without port; an IPv4-mapped IPv6 address is given in its IPv4 form. */
export function clientAddress(client: FsClient): string | undefined {
  const address = client.socket?.remoteAddress;
  if (!address) return undefined;
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}
