import { resolve } from 'node:path';
import { orderByDependencies } from './dependency-order.js';
import { readPluginDescriptor } from './descriptor.js';
import type { PluginDescriptor } from './plugin-api.js';
import { discoverPluginFolders, importPluginDefinition } from './plugin-loader.js';
import type { PluginRecord } from './plugin-record.js';

type Candidate = PluginRecord & { descriptor: PluginDescriptor };

const refused = (record: PluginRecord, problem: string): PluginRecord => ({ ...record, state: 'refused', problem });

/**
 * Reads the plugin.yml of every folder in `<serverDir>/plugins/*` and of `extraFolders`, orders
 * the plugins by dependencies and imports their main modules. Returns every plugin: loadable
 * ones in enable order with state `loaded`, the others `refused` with the reason.
 */
export async function loadPlugins(serverDir: string, extraFolders: readonly string[]): Promise<PluginRecord[]> {
  const folders = [...new Set([...discoverPluginFolders(serverDir), ...extraFolders.map((f) => resolve(f))])];
  const records: PluginRecord[] = [];
  const candidates: Candidate[] = [];
  for (const folder of folders) {
    try {
      const descriptor = readPluginDescriptor(folder);
      if (candidates.some((c) => c.descriptor.name === descriptor.name)) {
        records.push(
          refused({ folder, descriptor, state: 'refused' }, `another plugin is already named '${descriptor.name}'`),
        );
        continue;
      }
      candidates.push({ folder, descriptor, state: 'loaded' });
    } catch (error) {
      records.push(refused({ folder, state: 'refused' }, (error as Error).message));
    }
  }
  const order = orderByDependencies(candidates);
  for (const { name, reason } of order.refused) {
    records.push(refused(candidates.find((c) => c.descriptor.name === name)!, reason));
  }
  for (const record of order.ordered) {
    try {
      record.definition = await importPluginDefinition(record.folder, record.descriptor);
      records.push(record);
    } catch (error) {
      records.push(refused(record, (error as Error).message));
    }
  }
  return records;
}
