import { once } from 'node:events';
import type { GameHost, HostFactory } from '../../runtime/host.js';
import type { ServerSettings } from '../server-settings.js';
import { renderFlyingSquidMessages } from './chat-components.js';
import { takeOverHostCommands } from './command-takeover.js';
import { flyingSquidConsole } from './console-input.js';
import { closeServer, createQuietServer } from './create-server.js';
import { bridgeEvents } from './event-bridge.js';
import { flyingSquidOptions } from './flying-squid-options.js';
import { shareOpRights } from './op-rights.js';
import { PlayerDirectory } from './player-adapter.js';
import { releaseDepartedPlayers } from './player-release.js';
import { showJoiningPlayersToEachOther } from './player-visibility.js';
import { addPrivateMessageCommands } from './private-messages.js';
import { routeStopCommand } from './stop-command.js';
import { assertTcpPortFree } from './tcp-port.js';

/**
 * The flying-squid host (Java edition): creates the server (it starts listening at once), bridges
 * its events to the runtime, adds `/tell` and `/r`, hands the commands plugins declare to them and
 * gives server.yml ops flying-squid's op rights.
 */
export const createFlyingSquidHost: HostFactory<ServerSettings> = async ({
  runtime,
  settings,
  logger,
  requestStop,
}) => {
  await assertTcpPortFree(settings.host, settings.port);
  const serv = createQuietServer(flyingSquidOptions(settings, runtime.serverDir), logger);
  const listening = once(serv, 'listening') as Promise<[number]>;
  const failed = once(serv, 'error').then(([error]) => Promise.reject(error as Error));
  // Only the race in listen() reads it; a later server error is logged by flying-squid's own listener.
  failed.catch(() => {});
  const players = new PlayerDirectory(serv, runtime.permissions);
  runtime.setPlayers(players);
  bridgeEvents(serv, runtime, players, logger);
  addPrivateMessageCommands(serv, players, logger);
  // Before the takeover, so a plugin declaring `stop` still takes it over.
  routeStopCommand(serv, requestStop);
  takeOverHostCommands(serv, runtime, players, logger);
  shareOpRights(serv, runtime.permissions);
  showJoiningPlayersToEachOther(serv, releaseDepartedPlayers(serv));
  renderFlyingSquidMessages(serv);

  let closing: Promise<void> | undefined;
  const host: GameHost = {
    name: 'flying-squid',
    edition: 'java',
    version: settings.version,
    listen: async () => (await Promise.race([listening, failed]))[0],
    console: flyingSquidConsole(serv, runtime),
    close: () => {
      closing ??= closeServer(serv, logger);
      return closing;
    },
  };
  return host;
};
