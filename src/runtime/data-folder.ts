import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../ports/logger.js';
import { keepFolderPrivate, PRIVATE_FOLDER_MODE } from './private-files.js';

/** Under the server folder: one data folder per plugin, apart from the plugins' code in `plugins/`. */
export const PLUGIN_DATA_FOLDER = 'plugin-data';

/** `<serverDir>/plugin-data/<name>/`: config files, databases, anything the plugin writes. */
export function dataFolderOf(serverDir: string, pluginName: string): string {
  return join(serverDir, PLUGIN_DATA_FOLDER, pluginName);
}

/**
 * Creates a plugin's data folder. Before data and code were separated, the data folder was
 * `<serverDir>/plugins/<name>/`; such a folder (it has no plugin.yml, so it holds no code) is
 * moved to the new place once, so a server keeps its config and database across the upgrade.
 * The folder is 0700 and its files 0600 (see private-files): existing ones are tightened.
 * Returns the data folder.
 */
export function prepareDataFolder(serverDir: string, pluginName: string, logger: Logger): string {
  const dataFolder = dataFolderOf(serverDir, pluginName);
  if (!existsSync(dataFolder)) {
    mkdirSync(join(serverDir, PLUGIN_DATA_FOLDER), { recursive: true });
    const legacy = join(serverDir, 'plugins', pluginName);
    if (isLegacyDataFolder(legacy)) {
      renameSync(legacy, dataFolder);
      logger.info(`[${pluginName}] moved its data from ${legacy} to ${dataFolder}`);
    } else {
      mkdirSync(dataFolder, { mode: PRIVATE_FOLDER_MODE });
    }
  }
  keepFolderPrivate(dataFolder, logger, `[${pluginName}] `);
  return dataFolder;
}

/** A folder under plugins/ that holds no plugin (no plugin.yml): data left by an older version. */
export function isLegacyDataFolder(folder: string): boolean {
  return existsSync(folder) && statSync(folder).isDirectory() && !existsSync(join(folder, 'plugin.yml'));
}
