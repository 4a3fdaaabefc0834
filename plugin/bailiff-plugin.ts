import { dirname, join } from 'node:path';
import { readEmbeddedService } from '../src/connection/embedded-service.js';
import { describeSource, resolveServiceConnection } from '../src/connection/service-connection.js';
import type { PluginContext } from '../src/runtime/plugin-api.js';
import type { BailiffConfig } from './config/schema.js';
import { type Core, createCore } from './core/core.js';
import { type Feature, featureHooks } from './core/feature.js';
import { installAcknowledgements } from './features/acknowledgements.js';
import { installChatLog } from './features/chat-log.js';
import { installCommands } from './features/commands.js';
import { installEnforcement } from './features/enforcement.js';
import { installEvasion } from './features/evasion.js';
import { installFreeze } from './features/freeze.js';
import { installLanguages } from './features/languages.js';
import { installPlayerReports } from './features/player-reports.js';
import { installReload } from './features/reload.js';
import { installReplyNotices } from './features/reply-notices.js';
import { installReportAlerts } from './features/report-alerts.js';
import { installStatus } from './features/status.js';
import { installSync } from './features/sync.js';
import { BUNDLED_MESSAGES, loadBundledMessages } from './messages/load.js';
import { loadBundledLocales, loadOwnerLocales } from './messages/locale-files.js';
import { messagesSchema } from './messages/schema.js';

/** The running plugin, as onEnable leaves it. */
export interface BailiffInstance {
  readonly core: Core;
  /** The installed features, in the order they were installed. */
  readonly features: readonly Feature[];
  disable(): Promise<void>;
}

export const DATABASE_FILE = 'bailiff.db';

/** Builds the core, installs each feature (each hooks its own events), then starts them. */
export function enableBailiff(context: PluginContext<BailiffConfig>): BailiffInstance {
  const config = context.config.get();
  const connection = resolveServiceConnection({
    env: process.env,
    config: config.api,
    embedded: () => readEmbeddedService(context.dataFolder),
  });
  const messages = context.loadConfigFile({ file: 'messages.yml', defaults: BUNDLED_MESSAGES, schema: messagesSchema });
  const bundledMessages = loadBundledMessages(context.pluginFolder);
  const readOwnerLocales = () =>
    loadOwnerLocales(context.dataFolder, bundledMessages, (line) => context.logger.warn(line));
  const core = createCore({
    config,
    messages: messages.get(),
    bundledMessages,
    bundledLocales: loadBundledLocales(join(context.pluginFolder, dirname(BUNDLED_MESSAGES))),
    ownerLocales: readOwnerLocales(),
    databaseFile: join(context.dataFolder, DATABASE_FILE),
    connection,
    keySource: describeSource(connection.keyFrom, 'key'),
    players: context.players,
    permissions: context.permissions,
    console: context.console,
    clock: context.clock,
    logger: context.logger,
  });

  const enforcement = installEnforcement(core, featureHooks(context), context.permissions);
  const evasion = installEvasion(core, context, featureHooks(context));
  const sync = installSync(core, featureHooks(context));
  const status = installStatus(core, { sync, enforcement, evasion });
  const reload = installReload(core, { config: context.config, messages, locales: readOwnerLocales });
  const reports = installPlayerReports(core, context.players, featureHooks(context));
  const features: Feature[] = [
    installAcknowledgements(core),
    enforcement,
    evasion,
    sync,
    status,
    reload,
    reports,
    installReportAlerts(core, featureHooks(context)),
    installReplyNotices(core, featureHooks(context)),
    installFreeze(core, featureHooks(context)),
    installChatLog(core, featureHooks(context)),
    installCommands(core, context as PluginContext<unknown>, { sync, status, reload, evasion, reports }),
    installLanguages(core, featureHooks(context)),
  ];

  core.start();
  for (const feature of features) feature.start?.();
  context.logger.info('Bailiff enabled', {
    service: connection.baseUrl,
    source: describeSource(connection.urlFrom, 'url'),
    cachedPunishments: core.cache.count(),
    enforced: core.enforcedAtStart,
    stream: config.sync.stream,
  });

  return {
    core,
    features,
    async disable() {
      for (const feature of [...features].reverse()) await feature.stop();
      await core.close();
    },
  };
}
