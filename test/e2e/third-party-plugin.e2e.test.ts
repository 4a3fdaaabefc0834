import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../hosts/helpers/server-process.js';
import { mustJoin, type TestBot } from './helpers/bots.js';
import { waitFor } from './helpers/wait.js';

const repository = resolve(import.meta.dirname, '../..');
const tscBin = join(repository, 'node_modules', '.bin', 'tsc');

const PLUGIN_YML = `name: Greeter
version: 1.0.0
main: dist/index.js
commands:
  greet: { usage: /greet <player>, permission: greeter.greet }
permissions:
  greeter.greet: { default: true }
`;

/** A plugin as its author writes it from docs/plugin-authors/writing-plugins.md: types and zod from bailiff/plugin only. */
const PLUGIN_SOURCE = `import { CommandUsageError, definePlugin, type PluginContext, z } from 'bailiff/plugin';

const configSchema = z.object({ greeting: z.string().min(1) });
type GreeterConfig = z.infer<typeof configSchema>;

function welcome(context: PluginContext<GreeterConfig>, name: string): string {
  return \`&a\${context.config.get().greeting}, \${name}\`;
}

export default definePlugin<GreeterConfig>({
  name: 'Greeter',
  configSchema,
  onEnable(context) {
    context.events.on('player:join', ({ player }) => player.sendMessage(welcome(context, player.name)));
    context.commands.register('greet', {
      execute: ({ sender, args }) => {
        if (args.length !== 1) throw new CommandUsageError('name one player');
        sender.sendMessage(welcome(context, args[0]!));
      },
    });
    context.logger.info(\`data in \${context.dataFolder}, code in \${context.pluginFolder}\`);
  },
});
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    rootDir: 'src',
    outDir: 'dist',
    types: [],
  },
  include: ['src'],
});

function typeCheck(folder: string, emit: boolean) {
  const run = spawnSync(tscBin, ['-p', folder, ...(emit ? [] : ['--noEmit'])], { encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/**
 * A third-party TypeScript plugin in a server folder outside the repository: it type-checks
 * against `bailiff/plugin` (Bailiff installed in the folder as `npm install <bailiff>` would),
 * and loads with nothing installed at all, the runtime providing `bailiff/plugin` and zod.
 */
describe('a third-party TypeScript plugin written against bailiff/plugin', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-third-party-'));
  const pluginFolder = join(dir, 'plugins', 'Greeter');
  let server: ServerProcess | undefined;
  let bot: TestBot | undefined;

  beforeAll(() => {
    mkdirSync(join(pluginFolder, 'src'), { recursive: true });
    writeFileSync(join(pluginFolder, 'plugin.yml'), PLUGIN_YML);
    writeFileSync(join(pluginFolder, 'config.yml'), 'greeting: Welcome aboard\n');
    writeFileSync(join(pluginFolder, 'package.json'), '{ "type": "module", "private": true }\n');
    writeFileSync(join(pluginFolder, 'tsconfig.json'), TSCONFIG);
    writeFileSync(join(pluginFolder, 'src', 'index.ts'), PLUGIN_SOURCE);
    mkdirSync(join(pluginFolder, 'node_modules'));
    symlinkSync(repository, join(pluginFolder, 'node_modules', 'bailiff'), 'dir');
  });

  afterAll(async () => {
    await bot?.quit().catch(() => {});
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks and compiles against the published types', () => {
    const result = typeCheck(pluginFolder, true);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
    expect(existsSync(join(pluginFolder, 'dist', 'index.js'))).toBe(true);
  });

  it('is refused by the type checker when it misuses the API (the types are real, not any)', () => {
    const broken = join(dir, 'broken');
    cpSync(pluginFolder, broken, { recursive: true, dereference: false });
    const source = PLUGIN_SOURCE.replace('player.sendMessage(', 'player.uuid.toFixed(2), player.sendMessage(');
    writeFileSync(join(broken, 'src', 'index.ts'), source);
    const result = typeCheck(broken, false);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/toFixed/);
    rmSync(broken, { recursive: true, force: true });
  });

  it('loads with nothing installed, keeps its data apart from its code, and answers players', async () => {
    rmSync(join(pluginFolder, 'node_modules'), { recursive: true, force: true });
    server = await startServerProcess(dir, []);
    await server.waitForLine(/\[Greeter\] enabled Greeter v1\.0\.0/);
    const dataFolder = join(dir, 'plugin-data', 'Greeter');
    await server.waitForLine(new RegExp(`\\[Greeter\\] data in ${dataFolder}, code in ${pluginFolder}$`));
    expect(readFileSync(join(dataFolder, 'config.yml'), 'utf8')).toBe('greeting: Welcome aboard\n');

    bot = await mustJoin(server.port, 'Reader');
    const seen = (text: string) => bot!.seen.some((line) => line === text);
    await waitUntil(() => seen('Welcome aboard, Reader'));
    bot.bot.chat('/greet');
    await waitUntil(() => seen('name one player') && seen('Usage: /greet <player>'));
    bot.bot.chat('/greet Ada');
    await waitUntil(() => seen('Welcome aboard, Ada'));
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  await waitFor('the expected lines', () => (condition() ? true : undefined), timeoutMs);
}
