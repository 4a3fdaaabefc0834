import { join } from 'node:path';
import { randomId } from '../../src/ports/ids.js';
import { systemTimers } from '../../src/ports/timers.js';
import type { PluginContext } from '../../src/runtime/plugin-api.js';
import { AppealCooldowns } from '../appeals/appeal-cooldowns.js';
import { type CommandDeps, registerCommands } from '../commands/index.js';
import { cachedPunishmentTypes } from '../connection/punishment-types.js';
import type { Core } from '../core/core.js';
import type { Feature } from '../core/feature.js';
import { createIdentify } from '../identity/identify.js';
import { playerDirectory } from '../identity/player-directory.js';
import { commandReader } from '../messages/command-reader.js';
import { PlayerCalls } from '../players/player-calls.js';
import { offerNotice } from '../reports/online-notices.js';
import type { EvasionFeature } from './evasion.js';
import type { PlayerReportsFeature } from './player-reports.js';
import type { ReloadFeature } from './reload.js';
import type { StatusFeature } from './status.js';
import type { SyncFeature } from './sync.js';

/** Under the data folder: files of in-game migrations while they upload. */
export const MIGRATIONS_FOLDER = 'migrations';

/** What the commands need of the other features. */
export interface CommandFeatures {
  sync: Pick<SyncFeature, 'syncNow'>;
  status: Pick<StatusFeature, 'snapshot'>;
  reload: Pick<ReloadFeature, 'reload'>;
  evasion: Pick<EvasionFeature, 'lookups'>;
  reports: Pick<PlayerReportsFeature, 'reports'>;
}

/** Everything the commands need, from the core and the other features. */
export function commandDeps(
  core: Core,
  host: Pick<PluginContext, 'server' | 'players' | 'dataFolder'>,
  features: CommandFeatures,
): CommandDeps {
  const { client, outbox, effects, settings } = core;
  const { clock, logger } = core.enforcement;
  const players = playerDirectory(host.players, core.cache.players);
  return {
    client,
    outbox,
    messages: {
      render: (key, placeholders, options) => settings.messages(commandReader()).render(key, placeholders, options),
      get locale() {
        return settings.messages(commandReader()).locale;
      },
    },
    players,
    identify: createIdentify({
      server: host.server,
      players,
      client,
      profileLookupUrl: () => settings.config().players.profileLookupUrl,
      fetch: globalThis.fetch,
      clock,
      timers: systemTimers,
      logger,
    }),
    punishmentTypes: cachedPunishmentTypes(client, clock),
    applyCreated: effects.applyCreated,
    liftLocally: effects.liftLocally,
    isExempt: effects.isExempt,
    isOnline: effects.isOnline,
    offerNotice: (notice) =>
      offerNotice({ byUuid: (uuid) => host.players.byUuid(uuid), outbox, messages: settings.messages, clock }, notice),
    reportCreated: (report) => core.reports.emit('reportCreated', report),
    playerCalls: new PlayerCalls(() => settings.config().players, clock),
    reports: features.reports.reports,
    appeals: {
      codes: core.appealCodes,
      cooldowns: new AppealCooldowns(() => settings.config().appeals.cooldownMs, clock),
      appealUrl: () => settings.config().appealUrl,
    },
    inFlight: core.inFlight,
    records: effects.records,
    evasion: features.evasion.lookups,
    freezes: core.freezes,
    status: () => features.status.snapshot(),
    syncNow: () => features.sync.syncNow(),
    reload: () => features.reload.reload(),
    serverFolder: join(host.dataFolder, '..', '..'),
    migrationsFolder: join(host.dataFolder, MIGRATIONS_FOLDER),
    clock,
    ids: randomId,
    logger,
  };
}

/** The staff and player commands of plugin.yml (the runtime unbinds them when the plugin is disabled). */
export function installCommands(core: Core, host: PluginContext<unknown>, features: CommandFeatures): Feature {
  registerCommands(host, commandDeps(core, host, features));
  return { name: 'commands', stop: () => {} };
}
