import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorText } from '../../runtime/event-bus.js';
import { createStreamLogger, logLevelFromEnv } from '../../runtime/loggers.js';
import { bundledSdk, createGuestRuntime, parseGuestSettings } from '../guest-runtime.js';
import { renderFlyingSquidMessages } from './chat-components.js';
import { takeOverHostCommands } from './command-takeover.js';
import { playerListLine } from './console-input.js';
import { bridgeEvents } from './event-bridge.js';
import { releaseExitHookSignals } from './exit-hook.js';
import type { FsServer } from './flying-squid-types.js';
import { shareOpRights } from './op-rights.js';
import { PlayerDirectory } from './player-adapter.js';
import { releaseDepartedPlayers } from './player-release.js';
import { showJoiningPlayersToEachOther } from './player-visibility.js';
import { routeStopCommand } from './stop-command.js';

/** flying-squid calls `server` with `this` = its record of the plugin, whose `settings` are ours. */
interface FlyingSquidPluginRecord {
  settings?: unknown;
}

/** The createMCServer options this guest reads. */
interface HostOptions {
  host?: string;
  version?: string;
  'online-mode'?: boolean;
}

/**
 * A flying-squid external plugin (named in createMCServer's `plugins`) that runs the plugin
 * runtime as a guest: it translates this server's events for the runtime, which loads Bailiff
 * and every plugin.yml plugin from `<serverDir>/plugins/`. Everything a player could reach is
 * hooked here, synchronously, before flying-squid accepts anyone; plugins load in the
 * background and joins wait for them in the runtime's admission. Ctrl-C, SIGTERM, the console's
 * `stop` and an op's `/stop` disable the plugins before flying-squid quits.
 */
export function server(this: FlyingSquidPluginRecord, serv: FsServer, options: HostOptions): void {
  const logger = createStreamLogger({ minLevel: logLevelFromEnv(process.env.BAILIFF_LOG_LEVEL) });
  const bundleDir = dirname(fileURLToPath(import.meta.url));
  const settings = parseGuestSettings("flying-squid's plugins setting", this.settings);
  const guest = createGuestRuntime({
    settings,
    hostDir: process.cwd(),
    logger,
    sdk: bundledSdk(bundleDir),
    // flying-squid's own default is online mode.
    server: { edition: 'java', onlineMode: options['online-mode'] !== false },
  });
  const { runtime } = guest;
  const players = new PlayerDirectory(serv, runtime.permissions);
  runtime.setPlayers(players);
  bridgeEvents(serv, runtime, players, logger);
  shareOpRights(serv, runtime.permissions);
  showJoiningPlayersToEachOther(serv, releaseDepartedPlayers(serv));
  // From 1.20.3 flying-squid's own messages ("joined the game") would show raw `&` codes.
  renderFlyingSquidMessages(serv);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      logger.info('stopping: disabling plugins, then flying-squid');
      await guest.disable();
      await serv.quit('Server closed').catch(() => {});
      logger.info('game server stopped');
      process.exit(0);
    })();
    return stopping;
  };
  releaseExitHookSignals(createRequire(createRequire(import.meta.url).resolve('flying-squid')));
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  routeStopCommand(serv, () => void stop());

  // flying-squid's console hands every line to serv.handleCommand: the runtime's console path first.
  const runHostCommand = serv.handleCommand.bind(serv);
  const hostConsole = { describePlayers: () => playerListLine(serv, runtime), run: runHostCommand };
  serv.handleCommand = async (line: string) => runtime.handleConsoleLine(line, hostConsole, () => void stop());

  const listening = new Promise<number>((resolveListening) => serv.once('listening', resolveListening));
  logger.info(`flying-squid host: Minecraft java edition ${options.version ?? ''}, with the plugin runtime as a guest`);
  guest
    .enable()
    .then(async () => {
      takeOverHostCommands(serv, runtime, players, logger);
      const port = await listening;
      logger.info(`game server listening on ${options.host ?? '0.0.0.0'}:${port}`);
    })
    .catch((error: unknown) => logger.error('the plugin runtime failed to start', { error: errorText(error) }));
}
