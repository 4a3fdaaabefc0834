import { join, resolve } from 'node:path';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { Timers } from '../ports/timers.js';
import type { CommandRegistry } from './command-registry.js';
import { openConfigFile } from './config-file.js';
import { dataFolderOf } from './data-folder.js';
import type { EventBus } from './event-bus.js';
import { prefixLogger } from './loggers.js';
import type { PermissionService } from './permissions.js';
import type {
  CommandSender,
  Players,
  PluginContext,
  PluginDefinition,
  PluginDescriptor,
  ServerInfo,
} from './plugin-api.js';
import { createScheduler, type PluginScheduler } from './scheduler.js';

/** What the runtime shares with every plugin context. */
export interface SharedServices {
  serverDir: string;
  logger: Logger;
  clock: Clock;
  timers: Timers;
  bus: EventBus;
  commands: CommandRegistry;
  permissions: PermissionService;
  players: Players;
  console: CommandSender;
  server: ServerInfo;
}

export interface BuiltContext {
  context: PluginContext<unknown>;
  scheduler: PluginScheduler;
}

/**
 * Builds one plugin's context. Reading config.yml happens here, so an invalid config refuses
 * the plugin before its onEnable runs.
 */
export function buildPluginContext(
  shared: SharedServices,
  descriptor: PluginDescriptor,
  pluginFolder: string,
  definition: PluginDefinition<unknown>,
): BuiltContext {
  const name = descriptor.name;
  const dataFolder = dataFolderOf(shared.serverDir, name);
  const logger = prefixLogger(shared.logger, name);
  const scheduler = createScheduler(shared.timers, logger, name);
  const config = openConfigFile({
    path: join(dataFolder, 'config.yml'),
    defaultsPath: resolve(pluginFolder, definition.defaultConfig ?? 'config.yml'),
    schema: definition.configSchema,
  });
  const context: PluginContext<unknown> = {
    descriptor,
    pluginFolder,
    dataFolder,
    config,
    loadConfigFile: (options) =>
      openConfigFile({
        path: join(dataFolder, options.file),
        defaultsPath: resolve(pluginFolder, options.defaults),
        schema: options.schema,
      }),
    logger,
    scheduler,
    events: { on: (event, listener, options) => shared.bus.on(name, event, listener, options) },
    commands: { register: (command, handler) => shared.commands.register(name, command, handler) },
    permissions: shared.permissions,
    players: shared.players,
    console: shared.console,
    clock: shared.clock,
    server: shared.server,
  };
  return { context, scheduler };
}
