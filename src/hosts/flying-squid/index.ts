import { once } from 'node:events';
import type { Interface } from 'node:readline';
import type { Logger } from '../../ports/logger.js';
import { createStreamLogger, logLevelFromEnv } from '../../runtime/loggers.js';
import { readPermissionsFile } from '../../runtime/permissions.js';
import { PluginRuntime } from '../../runtime/runtime.js';
import { renderFlyingSquidMessages } from './chat-components.js';
import { takeOverHostCommands } from './command-takeover.js';
import { readConsoleCommands } from './console-input.js';
import { closeServer, createQuietServer } from './create-server.js';
import { bridgeEvents } from './event-bridge.js';
import { shareOpRights } from './op-rights.js';
import { PlayerDirectory } from './player-adapter.js';
import { addPrivateMessageCommands } from './private-messages.js';
import { flyingSquidOptions, loadServerSettings, type ServerSettings } from './server-settings.js';
import { routeStopCommand } from './stop-command.js';

export type { ServerSettings } from './server-settings.js';
export { ensureServerSettingsFile, loadServerSettings } from './server-settings.js';

export interface StartGameServerOptions {
  /** Holds `server.yml`, `permissions.yml`, `plugins/` and the world. */
  serverDir: string;
  /** Plugin folders loaded in place, besides `<serverDir>/plugins/*`. @default [] */
  pluginFolders?: string[];
  /** Win over config/server.yml and `<serverDir>/server.yml`. @default {} */
  settings?: Partial<ServerSettings>;
  /** @default a logger writing lines to stdout, at the level in BAILIFF_LOG_LEVEL (else info) */
  logger?: Logger;
  /** Where console commands are read from; null reads none. @default process.stdin */
  console?: NodeJS.ReadableStream | null;
  /**
   * Stop cleanly (plugins' onDisable) on SIGINT/SIGTERM, then exit unless another listener of
   * that signal (the caller's) is left to decide. @default true
   */
  handleSignals?: boolean;
}

export interface GameServer {
  host: string;
  port: number;
  runtime: PluginRuntime;
  settings: ServerSettings;
  /** Disables plugins (onDisable), kicks players and closes the server. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts a flying-squid game server with the plugin runtime: loads the plugins, enables them,
 * then logs `game server listening on HOST:PORT`.
 */
export async function startGameServer(options: StartGameServerOptions): Promise<GameServer> {
  const logger = options.logger ?? createStreamLogger({ minLevel: logLevelFromEnv(process.env.BAILIFF_LOG_LEVEL) });
  const settings = loadServerSettings(options.serverDir, options.settings);
  const runtime = new PluginRuntime({
    serverDir: options.serverDir,
    logger,
    ops: settings.ops,
    grants: readPermissionsFile(options.serverDir),
    preLogin: { timeoutMs: settings.preLoginTimeoutMs },
  });
  await runtime.load(options.pluginFolders ?? []);

  const serv = createQuietServer(flyingSquidOptions(settings, runtime.serverDir), logger);
  const listening = once(serv, 'listening') as Promise<[number]>;
  const failed = once(serv, 'error').then(([error]) => Promise.reject(error as Error));
  // Only the race below reads it; a later server error is logged by flying-squid's own listener.
  failed.catch(() => {});
  const players = new PlayerDirectory(serv, runtime.permissions);
  runtime.setPlayers(players);

  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  bridgeEvents(serv, runtime, players, logger, ready);
  addPrivateMessageCommands(serv, players, logger);
  // Before the takeover, so a plugin declaring `stop` still takes it over.
  routeStopCommand(serv, () => onConsoleStop());
  takeOverHostCommands(serv, runtime, players);
  shareOpRights(serv, runtime.permissions);
  renderFlyingSquidMessages(serv);

  let port: number;
  try {
    await runtime.enableAll();
    [port] = await Promise.race([listening, failed]);
  } catch (error) {
    await runtime.disableAll();
    await closeServer(serv, logger);
    throw error;
  }
  markReady();

  let lines: Interface | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      logger.info('stopping game server');
      lines?.close();
      await runtime.disableAll();
      await closeServer(serv, logger);
      logger.info('game server stopped');
    })();
    return stopping;
  };
  const stopAndExit = () => {
    stop().finally(() => process.exit(0));
  };
  // Another SIGINT/SIGTERM listener (e.g. the CLI's) owns the exit and may have more to close.
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 0) void stop();
    else stopAndExit();
  };
  // Console `stop` goes through the same path as Ctrl-C when someone listens for signals.
  const onConsoleStop = () => {
    if (process.listenerCount('SIGTERM') > 0) process.kill(process.pid, 'SIGTERM');
    else stopAndExit();
  };

  const consoleInput = options.console === undefined ? process.stdin : options.console;
  if (consoleInput) lines = readConsoleCommands(consoleInput, { serv, runtime, logger, onStop: onConsoleStop });
  if (options.handleSignals ?? true) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  logger.info(`game server listening on ${settings.host}:${port}`);
  return { host: settings.host, port, runtime, settings, stop };
}
