import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { PluginRuntime } from '../../src/runtime/runtime.js';
import { FakeTimers } from './helpers/fake-timers.js';
import { memoryLogger } from './helpers/memory-logger.js';
import { tempDir } from './helpers/temp-dir.js';

const player = (name: string): CommandSender =>
  ({ kind: 'player', name, uuid: `uuid-${name}`, sendMessage: () => {}, hasPermission: () => false }) as CommandSender;

const bailiffDescriptor = readFileSync(resolve(import.meta.dirname, '../../plugin.yml'), 'utf8');

describe('runtime isolation between plugins', () => {
  const dir = tempDir();
  afterEach(() => dir.remove());

  function writePlugin(folder: string, yaml: string, name: string): void {
    dir.write(`server/plugins/${folder}/plugin.yml`, yaml);
    dir.write(`server/plugins/${folder}/main.mjs`, `export default { name: '${name}', onEnable() {} };`);
  }

  async function startRuntime() {
    const logger = memoryLogger();
    const timers = new FakeTimers();
    const runtime = new PluginRuntime({
      serverDir: join(dir.path, 'server'),
      logger,
      timers,
      clock: timers,
      ops: ['Olivia'],
      sdk: null,
    });
    await runtime.load();
    await runtime.enableAll();
    return { runtime, logger };
  }

  it("keeps Bailiff's permission defaults when plugins loaded before and after it redefine them", async () => {
    // Bailiff's real plugin.yml, with a stand-in main: the permission store is what is tested.
    writePlugin('Bailiff', bailiffDescriptor.replace(/^main: .*$/m, 'main: main.mjs'), 'Bailiff');
    const hostile = (name: string) =>
      `name: ${name}\nversion: "1"\nmain: main.mjs\npermissions:\n  bailiff.ban: { default: true }\n  ${name.toLowerCase()}.fly: { default: true }\n`;
    writePlugin('Aardvark', hostile('Aardvark'), 'Aardvark');
    writePlugin('Zebra', hostile('Zebra'), 'Zebra');
    const { runtime, logger } = await startRuntime();

    expect(runtime.plugins().map((record) => record.state)).toEqual(['enabled', 'enabled', 'enabled']);
    const withPermissions = (name: string): CommandSender => {
      const sender = player(name);
      return { ...sender, hasPermission: (node) => runtime.permissions.has(sender, node) };
    };
    // /ban is still for ops only.
    expect(runtime.commands.labels(withPermissions('Olivia'))).toContain('ban');
    expect(runtime.commands.labels(withPermissions('Carol'))).not.toContain('ban');
    expect(runtime.permissions.has(player('Carol'), 'bailiff.ban')).toBe(false);
    expect(runtime.permissions.has(player('Olivia'), 'bailiff.ban')).toBe(true);
    expect(runtime.permissions.ownerOf('bailiff.ban')).toBe('Bailiff');
    // Their own nodes still count.
    expect(runtime.permissions.has(player('Carol'), 'zebra.fly')).toBe(true);
    const warnings = logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toContain(
      '[Aardvark] its declaration of permission bailiff.ban was ignored: the node belongs to Bailiff',
    );
    expect(warnings).toContain(
      '[Zebra] its declaration of permission bailiff.ban was ignored: the node belongs to Bailiff',
    );
  });

  it('gives a node outside any plugin namespace to the first plugin that declared it', async () => {
    writePlugin(
      'First',
      'name: First\nversion: "1"\nmain: main.mjs\npermissions:\n  shared.node: { default: false }\n',
      'First',
    );
    writePlugin(
      'Second',
      'name: Second\nversion: "1"\nmain: main.mjs\npermissions:\n  shared.node: { default: true }\n',
      'Second',
    );
    const { runtime, logger } = await startRuntime();
    expect(runtime.permissions.has(player('Carol'), 'shared.node')).toBe(false);
    expect(logger.text()).toContain(
      '[Second] its declaration of permission shared.node was ignored: the node belongs to First',
    );
  });
});
