import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { resolveApiSettings } from '../../src/migration/cli/api-settings.js';
import { parseMigrateArgs } from '../../src/migration/cli/parse-args.js';
import { makeTempDir } from './helpers/fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

describe('parseMigrateArgs', () => {
  it('resolves paths against the working folder and defaults the outbox database', () => {
    expect(parseMigrateArgs(['--from', 'essentials', '--dir', 'srv', '--out', 'm.json', '--dry-run'], '/work')).toEqual(
      {
        help: false,
        from: 'essentials',
        dir: '/work/srv',
        dryRun: true,
        outFile: '/work/m.json',
        apiUrl: undefined,
        apiKey: undefined,
        dbPath: '/work/server/plugin-data/Bailiff/bailiff.db',
      },
    );
  });

  it.each([
    [
      ['--dir', 'x'],
      '--from: expected vanilla, essentials, json, litebans, libertybans, advancedban, banmanager, received nothing',
    ],
    [['--from', 'litebans', '--dir', 'x'], "--database-url: expected the litebans database's URL, received nothing"],
    [['--from', 'vanilla'], '--dir: expected the folder to read from, received nothing'],
    [['--from', 'vanilla', '--dir', 'x', '--verbose'], "Unknown option '--verbose'"],
  ])('throws a usage error naming the flag for %j', (argv, message) => {
    expect(() => parseMigrateArgs(argv, '/work')).toThrow(UsageError);
    expect(() => parseMigrateArgs(argv, '/work')).toThrow(message);
  });
});

describe('resolveApiSettings', () => {
  const pluginFolder = () => join(dir, 'server', 'plugin-data', 'Bailiff');
  const writeConfig = async (yaml: string) => {
    await mkdir(pluginFolder(), { recursive: true });
    await writeFile(join(pluginFolder(), 'config.yml'), yaml);
  };

  it('prefers flags, then the environment, then config.yml', async () => {
    await writeConfig('api:\n  baseUrl: http://127.0.0.1:1\n  key: from-config\n  platform: bedrock\n');
    const env = { BAILIFF_API_URL: 'http://127.0.0.1:2', BAILIFF_API_KEY: 'from-env' };
    expect(
      await resolveApiSettings({ apiUrl: 'http://127.0.0.1:3', apiKey: 'from-flag' }, env, pluginFolder()),
    ).toEqual({
      baseUrl: 'http://127.0.0.1:3',
      apiKey: 'from-flag',
      platform: 'bedrock',
    });
    expect(await resolveApiSettings({}, env, pluginFolder())).toMatchObject({
      baseUrl: 'http://127.0.0.1:2',
      apiKey: 'from-env',
    });
    expect(await resolveApiSettings({}, {}, pluginFolder())).toEqual({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'from-config',
      platform: 'bedrock',
    });
  });

  it('falls back to the embedded service recorded by bailiff start', async () => {
    await writeConfig('api:\n  baseUrl: ""\n  key: ""\n');
    const embedded = {
      url: 'http://127.0.0.1:4',
      apiKey: 'embedded-key',
      adminToken: 'x',
      network: 'n',
      platform: 'minecraft',
    };
    await writeFile(join(pluginFolder(), 'embedded-service.json'), JSON.stringify(embedded));
    expect(await resolveApiSettings({}, {}, pluginFolder())).toEqual({
      baseUrl: 'http://127.0.0.1:4',
      apiKey: 'embedded-key',
      platform: 'minecraft',
    });
  });

  it('refuses a key without a URL, naming the flag to give, without echoing the key', async () => {
    const error = await resolveApiSettings({ apiKey: 'secret-key-123' }, {}, pluginFolder()).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      '--api-key is set but no service URL is: set --api-url to the moderation service the key belongs to (or use --dry-run)',
    );
    expect((error as Error).message).not.toContain('secret-key-123');
  });

  it('names every place to set a service when nothing is configured', async () => {
    const error = await resolveApiSettings({}, {}, join(dir, 'empty')).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('no moderation service is configured: set api.baseUrl and api.key');
  });
});
