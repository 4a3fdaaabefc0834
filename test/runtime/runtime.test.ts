import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PluginRuntime } from '../../src/runtime/runtime.js';
import { FakeTimers } from './helpers/fake-timers.js';
import { memoryLogger } from './helpers/memory-logger.js';
import { tempDir } from './helpers/temp-dir.js';

/** Writes a plain-JS plugin whose hooks append to globalThis.__runtimeTest. */
function writePlugin(
  dir: ReturnType<typeof tempDir>,
  folder: string,
  yaml: string,
  body: string,
  extraFiles: Record<string, string> = {},
): string {
  dir.write(`${folder}/plugin.yml`, yaml);
  dir.write(`${folder}/main.js`, body);
  for (const [file, text] of Object.entries(extraFiles)) dir.write(`${folder}/${file}`, text);
  return join(dir.path, folder);
}

declare global {
  var __runtimeTest: string[];
}

describe('plugin runtime lifecycle (real files, dynamic import)', () => {
  const dir = tempDir();
  afterEach(() => dir.remove());

  it('discovers plugins, enables them in dependency order with a full context, and disables in reverse', async () => {
    globalThis.__runtimeTest = [];
    const serverDir = join(dir.path, 'server');
    writePlugin(
      dir,
      'server/plugins/core-folder',
      'name: Core\nversion: 2.0.0\nmain: main.js\n',
      `export default { name: 'Core',
        onEnable(ctx) {
          globalThis.__runtimeTest.push('enable Core ' + ctx.dataFolder);
          ctx.events.on('plugin:enable', (e) => globalThis.__runtimeTest.push('Core saw enable of ' + e.plugin));
        },
        onDisable() { globalThis.__runtimeTest.push('disable Core'); } };`,
    );
    const explicit = writePlugin(
      dir,
      'elsewhere/addon',
      'name: Addon\nversion: "1"\nmain: main.js\ndepend: [Core]\n',
      `export default { name: 'Addon',
        onEnable(ctx) {
          globalThis.__runtimeTest.push('enable Addon interval=' + ctx.config.get().intervalMs);
          ctx.scheduler.repeat(() => globalThis.__runtimeTest.push('tick at ' + ctx.clock.now()), 100);
          ctx.events.on('player:chat', () => globalThis.__runtimeTest.push('chat'));
          ctx.logger.info('hello from addon');
        },
        onDisable() { globalThis.__runtimeTest.push('disable Addon'); } };`,
      { 'config.yml': 'intervalMs: 250\n' },
    );
    const timers = new FakeTimers();
    const logger = memoryLogger();
    const runtime = new PluginRuntime({ serverDir, logger, timers, clock: timers });
    await runtime.load([explicit]);
    await runtime.enableAll();

    expect(runtime.plugins().map((p) => [p.descriptor?.name, p.state])).toEqual([
      ['Core', 'enabled'],
      ['Addon', 'enabled'],
    ]);
    expect(globalThis.__runtimeTest).toEqual([
      `enable Core ${join(serverDir, 'plugin-data', 'Core')}`,
      'Core saw enable of Core',
      'enable Addon interval=250',
      'Core saw enable of Addon',
    ]);
    expect(existsSync(join(serverDir, 'plugin-data', 'Core'))).toBe(true);
    expect(readFileSync(join(serverDir, 'plugin-data', 'Addon', 'config.yml'), 'utf8')).toBe('intervalMs: 250\n');
    expect(logger.lines.map((l) => l.message)).toContain('[Addon] hello from addon');

    await timers.advance(100);
    await runtime.disableAll();
    await timers.advance(1000);
    runtime.bus.emit('player:chat', { player: {} as never, message: 'x', cancelled: false });
    expect(globalThis.__runtimeTest.slice(4)).toEqual(['tick at 100', 'disable Addon', 'disable Core']);
  });

  it('isolates a plugin that throws in onEnable and skips the plugins that depend on it', async () => {
    globalThis.__runtimeTest = [];
    const broken = writePlugin(
      dir,
      'broken',
      'name: Broken\nversion: "1"\nmain: main.js\n',
      `export default { name: 'Broken', onEnable(ctx) {
        ctx.events.on('player:chat', () => globalThis.__runtimeTest.push('leaked listener'));
        throw new Error('enable exploded'); } };`,
    );
    const dependent = writePlugin(
      dir,
      'dependent',
      'name: Dependent\nversion: "1"\nmain: main.js\ndepend: [Broken]\n',
      `export default { name: 'Dependent', onEnable() { globalThis.__runtimeTest.push('dependent enabled'); } };`,
    );
    const healthy = writePlugin(
      dir,
      'healthy',
      'name: Healthy\nversion: "1"\nmain: main.js\n',
      `export default { name: 'Healthy', onEnable() { globalThis.__runtimeTest.push('healthy enabled'); } };`,
    );
    const logger = memoryLogger();
    const runtime = new PluginRuntime({ serverDir: join(dir.path, 'server'), logger });
    await runtime.load([broken, dependent, healthy]);
    await runtime.enableAll();
    runtime.bus.emit('player:chat', { player: {} as never, message: 'x', cancelled: false });

    expect(runtime.stateOf('Broken')).toBe('failed');
    expect(runtime.stateOf('Dependent')).toBe('failed');
    expect(runtime.stateOf('Healthy')).toBe('enabled');
    expect(globalThis.__runtimeTest).toEqual(['healthy enabled']);
    expect(logger.text()).toContain('[Broken] enable failed: Error: enable exploded');
    expect(logger.text()).toContain("[Dependent] not enabled: its dependency 'Broken' is not enabled");
  });

  it("tells plugins the server's edition and online mode (java, online by default)", async () => {
    globalThis.__runtimeTest = [];
    const probe = writePlugin(
      dir,
      'probe',
      'name: Probe\nversion: "1"\nmain: main.js\n',
      `export default { name: 'Probe', onEnable(ctx) {
        globalThis.__runtimeTest.push(ctx.server.edition + ' online=' + ctx.server.onlineMode); } };`,
    );
    const bedrock = new PluginRuntime({
      serverDir: join(dir.path, 'server'),
      server: { edition: 'bedrock', onlineMode: false },
    });
    await bedrock.load([probe]);
    await bedrock.enableAll();
    const plain = new PluginRuntime({ serverDir: join(dir.path, 'server') });
    await plain.load([probe]);
    await plain.enableAll();
    expect(globalThis.__runtimeTest).toEqual(['bedrock online=false', 'java online=true']);
  });

  it('refuses bad descriptors, name mismatches, duplicate names, missing dependencies and invalid config', async () => {
    const badYaml = writePlugin(dir, 'bad-yaml', 'name: Bad\nmain: main.js\n', 'export default {}');
    const mismatch = writePlugin(
      dir,
      'mismatch',
      'name: Right\nversion: "1"\nmain: main.js\n',
      `export default { name: 'Wrong', onEnable() {} };`,
    );
    const duplicate = writePlugin(
      dir,
      'duplicate',
      'name: Right\nversion: "1"\nmain: main.js\n',
      `export default { name: 'Right', onEnable() {} };`,
    );
    const orphan = writePlugin(
      dir,
      'orphan',
      'name: Orphan\nversion: "1"\nmain: main.js\ndepend: [Nowhere]\n',
      `export default { name: 'Orphan', onEnable() {} };`,
    );
    const noMain = writePlugin(dir, 'no-main', 'name: NoMain\nversion: "1"\nmain: dist/missing.js\n', '');
    const logger = memoryLogger();
    const runtime = new PluginRuntime({ serverDir: join(dir.path, 'server'), logger });
    await runtime.load([badYaml, mismatch, duplicate, orphan, noMain]);
    await runtime.enableAll();
    const problems = Object.fromEntries(runtime.plugins().map((p) => [p.descriptor?.name ?? p.folder, p.problem]));

    expect(problems[badYaml]).toContain('version: expected string or number, received nothing');
    expect(problems.Right).toContain("the definition's name 'Wrong' must equal plugin.yml's name 'Right'");
    expect(runtime.plugins().filter((p) => p.descriptor?.name === 'Right')).toHaveLength(2);
    expect(runtime.plugins().some((p) => p.problem === "another plugin is already named 'Right'")).toBe(true);
    expect(problems.Orphan).toBe("missing hard dependency 'Nowhere' (declared in depend)");
    expect(problems.NoMain).toMatch(/main 'dist\/missing\.js': no file at .*missing\.js \(was the plugin built\?\)/);
    expect(runtime.plugins().every((p) => p.state === 'refused')).toBe(true);
  });

  it('refuses to enable a plugin whose config.yml fails its schema, naming file and key', async () => {
    const folder = writePlugin(
      dir,
      'strict',
      'name: Strict\nversion: "1"\nmain: main.js\n',
      `const schema = { safeParse: (v) => typeof v.port === 'number'
          ? { success: true, data: v }
          : { success: false, error: { issues: [{ code: 'invalid_type', expected: 'number', path: ['port'], message: 'x' }] } } };
       export default { name: 'Strict', configSchema: schema, defaultConfig: 'defaults/config.yml', onEnable() {} };`,
      { 'defaults/config.yml': 'port: nope\n' },
    );
    const logger = memoryLogger();
    const serverDir = join(dir.path, 'server');
    const runtime = new PluginRuntime({ serverDir, logger });
    await runtime.load([folder]);
    await runtime.enableAll();
    expect(runtime.stateOf('Strict')).toBe('failed');
    // The heading and each issue are log entries of their own, so a console shows them on lines of their own.
    const errors = logger.lines.filter((line) => line.level === 'error').map((line) => line.message);
    expect(errors).toEqual([
      `[Strict] enable failed: invalid config ${join(serverDir, 'plugin-data', 'Strict', 'config.yml')}:`,
      '[Strict]   port: expected number, received string "nope"',
    ]);
  });
});
