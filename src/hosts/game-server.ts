import type { Logger } from '../ports/logger.js';
import type { ConsoleReader, Edition, GameHost, HostFactory } from '../runtime/host.js';
import { createStreamLogger, logLevelFromEnv } from '../runtime/loggers.js';
import { readPermissionsFile } from '../runtime/permissions.js';
import { installProcessGuard } from '../runtime/process-guard.js';
import { PluginRuntime } from '../runtime/runtime.js';
import { loadServerSettings, type ServerSettings } from './server-settings.js';

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
  /**
   * Called when the console's `stop` (or an op's in-game `/stop`) asks to stop; the caller then
   * stops the server. @default stop as on SIGTERM
   */
  onStopRequested?: () => void;
  /**
   * Log a plugin's uncaught errors and unhandled rejections with its name and keep running; an
   * uncaught error no plugin can be named for stops the server (exit code 1). @default true
   */
  guardProcess?: boolean;
  /** Replaces the host chosen by the settings' `edition` (tests, benches). */
  host?: HostFactory<ServerSettings>;
}

export interface GameServer {
  host: string;
  port: number;
  /** The running host: `flying-squid` or `serenity`. */
  hostName: string;
  edition: Edition;
  runtime: PluginRuntime;
  settings: ServerSettings;
  /** Disables plugins (onDisable), kicks players and closes the server. Safe to call twice. */
  stop(): Promise<void>;
}

/** The host of an edition, imported only when used (each pulls in a whole game server). */
export async function hostForEdition(edition: Edition): Promise<HostFactory<ServerSettings>> {
  if (edition === 'bedrock') return (await import('./serenity/serenity-host.js')).createSerenityHost;
  return (await import('./flying-squid/flying-squid-host.js')).createFlyingSquidHost;
}

/**
 * Starts a game server with the plugin runtime: loads the plugins, creates the host of the
 * settings' edition, enables the plugins, listens, then logs `game server listening on HOST:PORT`.
 * Every host shares this lifecycle and its one shutdown path.
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
    server: { edition: settings.edition, onlineMode: settings.onlineMode },
  });
  let stopAfterFatalError: () => void = () => process.exit(1);
  const removeGuard =
    (options.guardProcess ?? true)
      ? installProcessGuard({
          logger,
          originOf: (error) => runtime.originOf(error),
          onUnattributedException: () => stopAfterFatalError(),
        })
      : () => {};
  await runtime.load(options.pluginFolders ?? []);

  const createHost = options.host ?? (await hostForEdition(settings.edition));
  // Players connecting before plugins are enabled wait in the runtime's admission.
  const host: GameHost = await createHost({ runtime, settings, logger, requestStop: () => onConsoleStop() });

  let port: number;
  try {
    await runtime.enableAll();
    port = await host.listen();
  } catch (error) {
    await runtime.disableAll();
    await host.close();
    removeGuard();
    throw error;
  }
  runtime.open();

  let lines: ConsoleReader | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      logger.info('stopping game server');
      lines?.close();
      await runtime.disableAll();
      await host.close();
      removeGuard();
      logger.info('game server stopped');
    })();
    return stopping;
  };
  stopAfterFatalError = () => {
    // A host in an unknown state may never finish closing.
    setTimeout(() => process.exit(1), 5000).unref();
    stop().finally(() => process.exit(1));
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
    if (options.onStopRequested) options.onStopRequested();
    else if (process.listenerCount('SIGTERM') > 0) process.kill(process.pid, 'SIGTERM');
    else stopAndExit();
  };

  const consoleInput = options.console === undefined ? process.stdin : options.console;
  if (consoleInput) lines = runtime.readConsole(consoleInput, host.console, onConsoleStop);
  if (options.handleSignals ?? true) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  logger.info(`${host.name} host: Minecraft ${host.edition} edition ${host.version}`);
  // Tests and the CLI parse this line: keep it exactly `game server listening on HOST:PORT`.
  logger.info(`game server listening on ${settings.host}:${port}`);
  return { host: settings.host, port, hostName: host.name, edition: host.edition, runtime, settings, stop };
}
