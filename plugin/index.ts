import { definePlugin } from '../src/runtime/plugin-api.js';
import { type BailiffInstance, enableBailiff } from './bailiff-plugin.js';
import { type BailiffConfig, bailiffConfigSchema } from './config/schema.js';

let instance: BailiffInstance | undefined;

/** The Bailiff moderation plugin (plugin.yml at the repository root points here, built). */
export default definePlugin<BailiffConfig>({
  name: 'Bailiff',
  configSchema: bailiffConfigSchema,
  defaultConfig: 'config/config.yml',
  onEnable(context) {
    instance = enableBailiff(context);
  },
  async onDisable() {
    const running = instance;
    instance = undefined;
    await running?.disable();
  },
});
