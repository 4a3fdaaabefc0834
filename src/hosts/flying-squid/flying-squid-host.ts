import { once } from 'node:events';
import type { GameHost, HostFactory } from '../../runtime/host.js';
import { renderFlyingSquidMessages } from './chat-components.js';
import { readConsoleCommands } from './console-input.js';
import { closeServer, createQuietServer } from './create-server.js';
import { bridgeEvents } from './event-bridge.js';
import { PlayerDirectory } from './player-adapter.js';
import { addPrivateMessageCommands } from './private-messages.js';
import { flyingSquidOptions, type ServerSettings } from './server-settings.js';

/**
 * The flying-squid host (Java edition): creates the server (it starts listening at once), bridges
 * its events to the runtime, and adds `/tell` and `/r`.
 */
export const createFlyingSquidHost: HostFactory<ServerSettings> = ({ runtime, settings, logger, ready }) => {
  const serv = createQuietServer(flyingSquidOptions(settings, runtime.serverDir), logger);
  const listening = once(serv, 'listening') as Promise<[number]>;
  const failed = once(serv, 'error').then(([error]) => Promise.reject(error as Error));
  // Only the race in listen() reads it; a later server error is logged by flying-squid's own listener.
  failed.catch(() => {});
  const players = new PlayerDirectory(serv, runtime.permissions);
  runtime.setPlayers(players);
  bridgeEvents(serv, runtime, players, logger, ready);
  addPrivateMessageCommands(serv, players, logger);
  renderFlyingSquidMessages(serv);

  let closing: Promise<void> | undefined;
  const host: GameHost = {
    name: 'flying-squid',
    edition: 'java',
    version: settings.version,
    listen: async () => (await Promise.race([listening, failed]))[0],
    readConsole: (input, onStop) => readConsoleCommands(input, { serv, runtime, logger, onStop }),
    close: () => {
      closing ??= closeServer(serv, logger);
      return closing;
    },
  };
  return host;
};
