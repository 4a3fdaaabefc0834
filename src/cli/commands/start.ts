import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readApiSection } from '../../connection/read-api-section.js';
import { ApiConnectionError, configuredService } from '../../connection/service-connection.js';
import { startGameServer } from '../../hosts/game-server.js';
import { ensureServerSettingsFile } from '../../hosts/server-settings.js';
import type { Logger } from '../../ports/logger.js';
import { prepareDataFolder } from '../../runtime/data-folder.js';
import { createStreamLogger, logLevelFromEnv } from '../../runtime/loggers.js';
import type { CliCommand, CliContext } from '../command.js';
import { UsageError } from '../command.js';
import { startEmbeddedService } from '../embedded-service.js';
import { installPluginFolder } from '../install-plugin-folder.js';

const USAGE = 'usage: bailiff start [--dir SERVER_DIR] [--host HOST] [--port PORT]';
const PLUGIN_NAME = 'Bailiff';
const LISTENING = 'game server listening on';

/**
 * The host's logger, minus the host's own `game server listening on` line: start prints that
 * line itself, plain and at any log level, because the demo and the tests parse it. Once.
 */
function hostLogger(env: NodeJS.ProcessEnv): Logger {
  const logger = createStreamLogger({ minLevel: logLevelFromEnv(env.BAILIFF_LOG_LEVEL) });
  return {
    ...logger,
    info: (message, fields) => {
      if (!message.startsWith(LISTENING)) logger.info(message, fields);
    },
  };
}

/** The package root (holds plugin.yml), from src/ or dist/src/. */
function packageRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    if (existsSync(join(directory, 'plugin.yml'))) return directory;
    directory = dirname(directory);
  }
  throw new Error('plugin.yml was not found above the start command');
}

/**
 * True when neither the environment nor the data folder's config.yml names a service. A key
 * without a URL (or a URL without a key) stops the start with the resolver's message.
 */
function needsEmbeddedService(dataFolder: string, env: NodeJS.ProcessEnv): boolean {
  let config: Record<string, unknown>;
  try {
    config = readApiSection(join(dataFolder, 'config.yml'));
  } catch {
    // The plugin reports a config.yml that is not YAML, with its line, when it loads.
    config = {};
  }
  try {
    return configuredService({ env, config }) === undefined;
  } catch (error) {
    if (error instanceof ApiConnectionError) throw new UsageError(error.message);
    throw error;
  }
}

function parseStartArgs(context: CliContext) {
  let values: { dir?: string; host?: string; port?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: context.argv,
      options: {
        dir: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`--port: expected an integer from 0 to 65535, received "${values.port}"\n${USAGE}`);
    }
  }
  return { dir: resolve(context.cwd, values.dir ?? 'server'), host: values.host, port, help: values.help ?? false };
}

/** Resolves with the signal (Ctrl-C, SIGTERM), or with `console` when the console's `stop` asks to stop. */
function shutdownRequest(): { requested: Promise<NodeJS.Signals | 'console'>; fromConsole: () => void } {
  let fromConsole!: () => void;
  const requested = new Promise<NodeJS.Signals | 'console'>((resolveRequest) => {
    const onSignal = (signal: NodeJS.Signals) => done(signal);
    const done = (request: NodeJS.Signals | 'console') => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolveRequest(request);
    };
    fromConsole = () => done('console');
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return { requested, fromConsole };
}

/**
 * `bailiff start`: a game server with Bailiff (flying-squid, or SerenityJS for `edition: bedrock`), and the
 * embedded service when none is configured.
 */
export const command: CliCommand = async (context) => {
  const options = parseStartArgs(context);
  if (options.help) {
    context.stdout.write(`${USAGE}\n`);
    return 0;
  }
  mkdirSync(options.dir, { recursive: true });
  // Before installing the plugin folder: an older version kept its data where the code now goes.
  const dataFolder = prepareDataFolder(options.dir, PLUGIN_NAME, hostLogger(context.env));
  if (installPluginFolder(join(packageRoot(), 'dist', 'plugins', PLUGIN_NAME), options.dir)) {
    context.stdout.write(`installed Bailiff in ${join(options.dir, 'plugins', PLUGIN_NAME)}\n`);
  }
  if (ensureServerSettingsFile(options.dir)) {
    context.stdout.write(
      `created ${join(options.dir, 'server.yml')}: edition, host, port, version, online mode, ops\n`,
    );
  }

  const service = needsEmbeddedService(dataFolder, context.env)
    ? await startEmbeddedService(dataFolder, context.stdout)
    : undefined;
  const shutdown = shutdownRequest();
  let game: Awaited<ReturnType<typeof startGameServer>>;
  try {
    game = await startGameServer({
      serverDir: options.dir,
      // Signals are handled below, so the embedded service is closed too.
      handleSignals: false,
      onStopRequested: shutdown.fromConsole,
      logger: hostLogger(context.env),
      settings: {
        ...(options.host === undefined ? {} : { host: options.host }),
        ...(options.port === undefined ? {} : { port: options.port }),
      },
    });
  } catch (error) {
    shutdown.fromConsole(); // only releases the signal listeners: nothing is running
    await service?.close();
    throw error;
  }
  context.stdout.write(`${LISTENING} ${game.host}:${game.port}\n`);

  const request = await shutdown.requested;
  // The console's own `stop` needs no echo; the game server logs that it is stopping.
  if (request !== 'console') context.stdout.write(`${request}: stopping\n`);
  await game.stop();
  await service?.close();
  context.stdout.write('stopped\n');
  // A host may leave timers running after it closed (flying-squid's tick); do not let them hold the process.
  setTimeout(() => process.exit(0), 2000).unref();
  return 0;
};
