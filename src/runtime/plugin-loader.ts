import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RuntimeError } from './errors.js';
import type { PluginDefinition, PluginDescriptor } from './plugin-api.js';
import { runAsPlugin } from './plugin-scope.js';

/** Folders under `<serverDir>/plugins/` that hold a plugin.yml, sorted by name. */
export function discoverPluginFolders(serverDir: string): string[] {
  const pluginsDir = join(serverDir, 'plugins');
  if (!existsSync(pluginsDir)) return [];
  return readdirSync(pluginsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(pluginsDir, entry.name, 'plugin.yml')))
    .map((entry) => resolve(pluginsDir, entry.name))
    .sort();
}

/** Imports a plugin's `main` and checks that its default export is a matching PluginDefinition. */
export async function importPluginDefinition(
  pluginFolder: string,
  descriptor: PluginDescriptor,
): Promise<PluginDefinition<unknown>> {
  const mainPath = resolve(pluginFolder, descriptor.main);
  const where = `${join(pluginFolder, 'plugin.yml')} main '${descriptor.main}'`;
  if (!existsSync(mainPath)) {
    throw new RuntimeError('BAILIFF_PLUGIN_LOAD', `${where}: no file at ${mainPath} (was the plugin built?)`);
  }
  let module: { default?: unknown };
  try {
    // Code the module runs as it loads (timers, promises) is the plugin's.
    module = await runAsPlugin(descriptor.name, () => import(pathToFileURL(mainPath).href));
  } catch (cause) {
    throw new RuntimeError('BAILIFF_PLUGIN_LOAD', `${where}: import failed: ${(cause as Error).message}`, { cause });
  }
  const definition = module.default as Partial<PluginDefinition<unknown>> | undefined;
  if (!definition || typeof definition !== 'object' || typeof definition.onEnable !== 'function') {
    throw new RuntimeError(
      'BAILIFF_PLUGIN_LOAD',
      `${where}: expected a default export made with definePlugin({ name, onEnable }), received ${typeof definition === 'object' ? 'an object without onEnable' : typeof definition}`,
    );
  }
  if (definition.name !== descriptor.name) {
    throw new RuntimeError(
      'BAILIFF_PLUGIN_LOAD',
      `${where}: the definition's name '${String(definition.name)}' must equal plugin.yml's name '${descriptor.name}'`,
    );
  }
  return definition as PluginDefinition<unknown>;
}
