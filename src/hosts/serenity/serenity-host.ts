import { ServerState } from '@serenityjs/core';
import { MINECRAFT_VERSION } from '@serenityjs/protocol';
import { errorText } from '../../runtime/event-bus.js';
import type { GameHost, HostFactory } from '../../runtime/host.js';
import { explainBindError } from '../port-in-use.js';
import type { ServerSettings } from '../server-settings.js';
import { serenityConsole } from './console-input.js';
import { createSerenity } from './create-serenity.js';
import { bridgeSerenityEvents } from './event-bridge.js';
import { installNodeShims } from './node-shims.js';
import { acceptNewOfflineLogins } from './offline-login.js';
import { BedrockPlayerDirectory } from './player-adapter.js';
import { startWithoutBusyLoop } from './quiet-loop.js';
import { answerRepeatedHandshakes } from './raknet-handshake.js';
import { routeSerenityLogs } from './serenity-logs.js';
import { routeStopCommand } from './stop-command.js';
import { freeUdpPort } from './udp-port.js';

const CLOSE_LIMIT_MS = 3000;

/**
 * The SerenityJS host (Bedrock edition, one game version): an in-memory world, SerenityJS's
 * logs in ours, offline logins of current clients accepted in offline mode, no busy loop;
 * server.yml ops are SerenityJS operators, and its `/stop` stops through the one shutdown path.
 */
export const createSerenityHost: HostFactory<ServerSettings> = async ({ runtime, settings, logger, requestStop }) => {
  installNodeShims();
  answerRepeatedHandshakes();
  routeSerenityLogs(logger);
  if (settings.worldFolder !== null) {
    logger.warn('the bedrock host keeps its world in memory: worldFolder is ignored');
  }
  const port = settings.port === 0 ? await freeUdpPort(settings.host) : settings.port;
  const serenity = await createSerenity({ port, settings });
  if (!settings.onlineMode) acceptNewOfflineLogins(serenity);
  routeStopCommand(serenity, requestStop);
  const players = new BedrockPlayerDirectory(runtime.permissions);
  runtime.setPlayers(players);
  bridgeSerenityEvents(serenity, runtime, players, logger);

  let closing: Promise<void> | undefined;
  const close = async () => {
    if (serenity.state === ServerState.StartingUp) return void serenity.console.close();
    const stopped = serenity.stop().catch((error: unknown) => {
      logger.warn('server did not close cleanly', { error: errorText(error) });
    });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_LIMIT_MS);
    });
    await Promise.race([stopped, limit]);
    clearTimeout(timer);
  };
  const host: GameHost = {
    name: 'serenity',
    edition: 'bedrock',
    version: MINECRAFT_VERSION,
    listen: async () => {
      try {
        await startWithoutBusyLoop(serenity);
      } catch (error) {
        throw explainBindError(error, settings.host, port, 'UDP');
      }
      return port;
    },
    console: serenityConsole(serenity, runtime, logger),
    close: () => {
      closing ??= close();
      return closing;
    },
  };
  return host;
};
