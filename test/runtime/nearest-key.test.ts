import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openConfigFile } from '../../src/runtime/config-file.js';
import { ConfigError } from '../../src/runtime/errors.js';
import { withKeyAliases } from '../../src/runtime/key-aliases.js';
import { knownKeysAt, nearestKey } from '../../src/runtime/nearest-key.js';
import { tempDir } from './helpers/temp-dir.js';

describe('nearest known key', () => {
  const known = ['onlineMode', 'maxPlayers', 'viewDistance', 'port', 'host', 'ops', 'motd'];

  it('sees other spellings of the same words as the same key', () => {
    expect(nearestKey('online-mode', known)).toBe('onlineMode');
    expect(nearestKey('ONLINE_MODE', known)).toBe('onlineMode');
    expect(nearestKey('maxplayers', known)).toBe('maxPlayers');
  });

  it('suggests the closest key for a typo', () => {
    expect(nearestKey('viewDistanse', known)).toBe('viewDistance');
    expect(nearestKey('maxPlayer', known)).toBe('maxPlayers');
    expect(nearestKey('prot', known)).toBe('port');
  });

  it('suggests nothing for a key that is not close to any', () => {
    expect(nearestKey('banana', known)).toBeUndefined();
    expect(nearestKey('worldGeneration', known)).toBeUndefined();
    expect(nearestKey('anything', [])).toBeUndefined();
  });
});

describe('keys a schema knows', () => {
  const schema = z.object({
    api: z.strictObject({ baseUrl: z.string(), key: z.string() }).optional(),
    servers: z.array(z.strictObject({ name: z.string(), port: z.number() })).default([]),
    limits: z.record(z.string(), z.strictObject({ perMinute: z.number() }).nullable()),
    level: z.number(),
  });

  it('walks objects, lists, records and wrappers down to the object at a path', () => {
    expect(knownKeysAt(schema, [])).toEqual(['api', 'servers', 'limits', 'level']);
    expect(knownKeysAt(schema, ['api'])).toEqual(['baseUrl', 'key']);
    expect(knownKeysAt(schema, ['servers', 0])).toEqual(['name', 'port']);
    expect(knownKeysAt(schema, ['limits', 'chat'])).toEqual(['perMinute']);
  });

  it('sees through preprocessing and answers undefined where there is no object', () => {
    expect(knownKeysAt(withKeyAliases(schema, { 'api-settings': 'api' }), ['api'])).toEqual(['baseUrl', 'key']);
    expect(knownKeysAt(schema, ['level'])).toBeUndefined();
    expect(knownKeysAt(schema, ['missing', 'deeper'])).toBeUndefined();
  });
});

describe('unknown keys in a plugin config file', () => {
  const dir = tempDir();

  it('suggest the nearest key at the level where they were found', () => {
    const schema = z.strictObject({
      sync: z.strictObject({ pollIntervalMs: z.number().default(2000), stream: z.boolean() }),
    });
    const path = dir.write('data/config.yml', 'sync:\n  pollIntervalMS: 10\n  stream: true\n');
    let error: ConfigError | undefined;
    try {
      openConfigFile({ path, schema });
    } catch (caught) {
      error = caught as ConfigError;
    }
    dir.remove();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.issues).toEqual([
      { key: 'sync', expected: 'no key "pollIntervalMS" (did you mean "pollIntervalMs"?)', received: 'a mapping' },
    ]);
  });
});

describe('key aliases', () => {
  const schema = withKeyAliases(z.strictObject({ onlineMode: z.boolean().optional(), port: z.number().optional() }), {
    'online-mode': 'onlineMode',
  });

  it('renames an alias to its key and leaves other keys alone', () => {
    expect(schema.parse({ 'online-mode': false, port: 1 })).toEqual({ onlineMode: false, port: 1 });
    expect(schema.parse({ onlineMode: true })).toEqual({ onlineMode: true });
  });

  it('refuses both spellings at once, on the alias', () => {
    const result = schema.safeParse({ onlineMode: true, 'online-mode': false });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['online-mode'],
        message: '"onlineMode" or its other spelling "online-mode", not both',
      }),
    ]);
  });

  it('passes anything but a mapping on for the schema to refuse', () => {
    expect(schema.safeParse(['online-mode']).success).toBe(false);
    expect(schema.safeParse(null).success).toBe(false);
  });
});
