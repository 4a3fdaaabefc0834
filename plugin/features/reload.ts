import type { ConfigFile } from '../../src/runtime/plugin-api.js';
import { type ReloadOutcome, readReloadedSettings } from '../config/reload-settings.js';
import type { BailiffConfig } from '../config/schema.js';
import type { Core } from '../core/core.js';
import type { Feature } from '../core/feature.js';
import type { LocaleTables } from '../messages/catalogue.js';
import type { MessageTable } from '../messages/schema.js';

export interface ReloadFeature extends Feature {
  /** Re-reads config.yml and messages.yml; throws (changing nothing) when either is invalid. */
  reload(): ReloadOutcome;
}

/** `/bailiff reload`: the files are read and checked whole, then every feature follows the new settings. */
export function installReload(
  core: Core,
  files: { config: ConfigFile<BailiffConfig>; messages: ConfigFile<MessageTable>; locales?: () => LocaleTables },
): ReloadFeature {
  return {
    name: 'reload',
    reload() {
      const next = readReloadedSettings(files, core.settings.config());
      // Read before anything is replaced: an invalid locale file keeps every running setting.
      const locales = files.locales?.();
      core.settings.replace({ ...next, ...(locales ? { locales } : {}) });
      core.enforcement.logger.info('config.yml and messages.yml reloaded', { restartRequired: next.restartRequired });
      return { restartRequired: next.restartRequired };
    },
    stop: () => {},
  };
}
