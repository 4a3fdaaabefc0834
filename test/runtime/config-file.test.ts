import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openConfigFile } from '../../src/runtime/config-file.js';
import { ConfigError } from '../../src/runtime/errors.js';
import { tempDir } from './helpers/temp-dir.js';

const schema = z.object({ pollIntervalMs: z.number().int().positive(), greeting: z.string().default('hi') });

describe('plugin config files', () => {
  const dir = tempDir();
  afterEach(() => dir.remove());

  it('copies the bundled default on first run, then validates it', () => {
    const defaults = dir.write('plugin/config/config.yml', '# comment kept\npollIntervalMs: 1000\n');
    const path = join(dir.path, 'server/plugins/Demo/config.yml');
    const config = openConfigFile({ path, defaultsPath: defaults, schema });
    expect(config.get()).toEqual({ pollIntervalMs: 1000, greeting: 'hi' });
    expect(readFileSync(path, 'utf8')).toBe('# comment kept\npollIntervalMs: 1000\n');
    expect(config.path).toBe(path);
  });

  it('never overwrites an existing file with the default', () => {
    const defaults = dir.write('plugin/config.yml', 'pollIntervalMs: 1000\n');
    const path = dir.write('data/config.yml', 'pollIntervalMs: 5\n');
    expect(openConfigFile({ path, defaultsPath: defaults, schema }).get().pollIntervalMs).toBe(5);
  });

  it('names file, key, expected and received when invalid', () => {
    const path = dir.write('data/config.yml', 'pollIntervalMs: soon\n');
    let error: ConfigError | undefined;
    try {
      openConfigFile({ path, schema });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.code).toBe('BAILIFF_CONFIG');
    expect(error?.issues).toEqual([{ key: 'pollIntervalMs', expected: 'number', received: 'string "soon"' }]);
    expect(error?.message).toBe(`invalid config ${path}:\n  pollIntervalMs: expected number, received string "soon"`);
  });

  it('never repeats the value of a key, token or secret in the error', () => {
    const secrets = z.object({ api: z.object({ key: z.string() }), adminToken: z.string(), secret: z.string() });
    const path = dir.write('data/config.yml', 'api:\n  key: 987654321\nadminToken: 123456789\nsecret: [1, 2]\n');
    let error: ConfigError | undefined;
    try {
      openConfigFile({ path, schema: secrets });
    } catch (caught) {
      error = caught as ConfigError;
    }
    expect(error?.issues).toEqual([
      { key: 'api.key', expected: 'string', received: 'number (value hidden)' },
      { key: 'adminToken', expected: 'string', received: 'number (value hidden)' },
      { key: 'secret', expected: 'string', received: 'object (value hidden)' },
    ]);
    expect(error?.message).not.toMatch(/987654321|123456789/);
  });

  it('reload keeps the previous value when the new file is invalid, and picks up a valid one', () => {
    const path = dir.write('data/config.yml', 'pollIntervalMs: 10\n');
    const config = openConfigFile({ path, schema });
    writeFileSync(path, 'pollIntervalMs: [\n');
    expect(() => config.reload()).toThrow(ConfigError);
    expect(() => config.reload()).toThrow(/line \d+: expected /);
    expect(config.get().pollIntervalMs).toBe(10);
    writeFileSync(path, 'pollIntervalMs: 20\n');
    expect(config.reload().pollIntervalMs).toBe(20);
    expect(config.get().pollIntervalMs).toBe(20);
  });

  it('starts from {} without a default file when the schema allows it, writing nothing', () => {
    const path = join(dir.path, 'data/config.yml');
    const config = openConfigFile({ path, schema: z.object({ a: z.number().default(1) }) });
    expect(config.get()).toEqual({ a: 1 });
    expect(existsSync(path)).toBe(false);
    expect(() => openConfigFile({ path, defaultsPath: join(dir.path, 'missing.yml'), schema })).toThrow(
      /expected the bundled default .*missing\.yml, received no file/,
    );
  });
});
