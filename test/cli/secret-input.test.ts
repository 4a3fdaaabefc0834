import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { readSecret } from '../../src/cli/secret-input.js';
import { configuredService } from '../../src/connection/service-connection.js';
import { parseMigrateArgs } from '../../src/migration/cli/parse-args.js';
import { tempDir } from '../runtime/helpers/temp-dir.js';

const TOKEN = 'file-admin-token-0123456789abcdef';
const dir = tempDir('bailiff-secrets-');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
  dir.remove();
});

const sources = (overrides: Partial<Parameters<typeof readSecret>[0]> = {}) => ({
  flagName: '--admin-token',
  flagValue: undefined,
  fileFlagName: '--admin-token-file',
  fileFlagValue: undefined,
  envName: 'BAILIFF_ADMIN_TOKEN',
  env: {},
  cwd: dir.path,
  ...overrides,
});

describe('secrets from a flag, a file or the environment', () => {
  it('reads the flag, else the file flag, else the variable, else the file the _FILE variable names', () => {
    dir.write('token.txt', `${TOKEN}\n`);
    dir.write('env-token.txt', 'from-env-file');
    expect(readSecret(sources({ flagValue: 'flag', env: { BAILIFF_ADMIN_TOKEN: 'env' } }))).toBe('flag');
    expect(readSecret(sources({ fileFlagValue: 'token.txt', env: { BAILIFF_ADMIN_TOKEN: 'env' } }))).toBe(TOKEN);
    expect(
      readSecret(sources({ env: { BAILIFF_ADMIN_TOKEN: 'env', BAILIFF_ADMIN_TOKEN_FILE: 'env-token.txt' } })),
    ).toBe('env');
    expect(readSecret(sources({ env: { BAILIFF_ADMIN_TOKEN_FILE: 'env-token.txt' } }))).toBe('from-env-file');
    expect(readSecret(sources())).toBe(undefined);
  });

  it('refuses both flags, a missing, empty or many-line file, naming the flag and file but never a secret', () => {
    dir.write('empty.txt', '\n');
    dir.write('two-lines.txt', 'secret-one\nsecret-two\n');
    const cases: Array<[Partial<Parameters<typeof readSecret>[0]>, string]> = [
      [{ flagValue: 'x', fileFlagValue: 'token.txt' }, 'give --admin-token or --admin-token-file, not both'],
      [{ fileFlagValue: 'missing.txt' }, `--admin-token-file: cannot read ${dir.path}/missing.txt: ENOENT`],
      [{ fileFlagValue: 'empty.txt' }, `--admin-token-file: ${dir.path}/empty.txt is empty`],
      [{ env: { BAILIFF_ADMIN_TOKEN_FILE: 'two-lines.txt' } }, 'BAILIFF_ADMIN_TOKEN_FILE: '],
    ];
    for (const [overrides, message] of cases) {
      let caught: unknown;
      try {
        readSecret(sources(overrides));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UsageError);
      expect((caught as Error).message).toContain(message);
      expect((caught as Error).message).not.toContain('secret-one');
    }
  });

  it('gives bailiff migrate the key from --api-key-file, and the plugin the key from BAILIFF_API_KEY_FILE', () => {
    dir.write('api-key.txt', 'key-from-file\n');
    const args = parseMigrateArgs(['--from', 'vanilla', '--dir', '.', '--api-key-file', 'api-key.txt'], dir.path);
    expect(args.apiKey).toBe('key-from-file');
    const env = { BAILIFF_API_URL: 'http://127.0.0.1:1', BAILIFF_API_KEY_FILE: `${dir.path}/api-key.txt` };
    expect(configuredService({ env, config: {} })).toMatchObject({ apiKey: 'key-from-file', keyFrom: 'environment' });
    expect(configuredService({ env: { ...env, BAILIFF_API_KEY: 'plain' }, config: {} })?.apiKey).toBe('plain');
    expect(() => configuredService({ env: { ...env, BAILIFF_API_KEY_FILE: `${dir.path}/nope` }, config: {} })).toThrow(
      `BAILIFF_API_KEY_FILE: cannot read ${dir.path}/nope: ENOENT`,
    );
  });
});

describe('bailiff service --admin-token-file (built CLI)', { timeout: 30_000 }, () => {
  it('uses the token from the file and never prints it', async () => {
    const file = dir.write('service-token', `${TOKEN}\n`);
    const main = new URL('../../dist/src/cli/main.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [main, 'service', '--port', '0', '--admin-token-file', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    const exited = once(child, 'exit');
    const deadline = Date.now() + 15_000;
    while (!/listening on (\S+)\n/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no listening line: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const url = /listening on (\S+)\n/.exec(output)![1];
    const migrations = (token: string) =>
      fetch(`${url}/admin/v1/networks/none/migrations`, { headers: { authorization: `Bearer ${token}` } });
    expect((await migrations(TOKEN)).status).not.toBe(401);
    expect((await migrations('wrong-token-0123456789abcdef')).status).toBe(401);
    process.kill(child.pid!, 'SIGTERM');
    await exited;
    expect(output).not.toContain(TOKEN);
    expect(output).not.toContain('admin token:');
  });
});
