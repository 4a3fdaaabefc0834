import type { PluginContext, PluginDefinition, PluginDescriptor } from './plugin-api.js';
import type { PluginScheduler } from './scheduler.js';

export type PluginState = 'loaded' | 'enabled' | 'disabled' | 'failed' | 'refused';

/** A plugin as the runtime tracks it. */
export interface PluginRecord {
  folder: string;
  descriptor?: PluginDescriptor;
  definition?: PluginDefinition<unknown>;
  state: PluginState;
  /** Why the plugin was refused or failed. */
  problem?: string;
  context?: PluginContext<unknown>;
  scheduler?: PluginScheduler;
}
