import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEmbeddedService, writeEmbeddedService } from '../../src/connection/embedded-service.js';
import {
  configuredService,
  describeSource,
  resolveServiceConnection,
} from '../../src/connection/service-connection.js';

const EMBEDDED = {
  url: 'http://127.0.0.1:1234',
  apiKey: 'demo-key-123',
  adminToken: 't',
  network: 'demo',
  platform: 'minecraft',
};
const none = () => undefined;

describe('which service, with which key', () => {
  it('takes config.yml when it names a service', () => {
    const config = { baseUrl: 'http://127.0.0.1:9000', key: 'k', platform: 'game' };
    expect(resolveServiceConnection({ env: {}, config, embedded: none })).toEqual({
      baseUrl: 'http://127.0.0.1:9000',
      apiKey: 'k',
      platform: 'game',
      urlFrom: 'config.yml',
      keyFrom: 'config.yml',
    });
  });

  it('lets flags win over the environment, and the environment over config.yml, each setting on its own', () => {
    const config = { baseUrl: 'http://file.example', key: 'file-key' };
    const env = { BAILIFF_API_URL: 'http://env.example', BAILIFF_API_KEY: 'env-key' };
    expect(resolveServiceConnection({ env, config, embedded: none })).toMatchObject({
      baseUrl: 'http://env.example',
      apiKey: 'env-key',
      keyFrom: 'environment',
    });
    expect(resolveServiceConnection({ env: { BAILIFF_API_KEY: 'env-key' }, config, embedded: none })).toMatchObject({
      baseUrl: 'http://file.example',
      urlFrom: 'config.yml',
      keyFrom: 'environment',
    });
    const flags = { apiKey: 'flag-key' };
    expect(resolveServiceConnection({ flags, env, config, embedded: none })).toMatchObject({ keyFrom: 'flag' });
    expect(
      resolveServiceConnection({ env: { BAILIFF_API_URL: ' ', BAILIFF_API_KEY: '' }, config, embedded: none }),
    ).toMatchObject({
      urlFrom: 'config.yml',
      keyFrom: 'config.yml',
    });
  });

  it('refuses a key without a URL, naming the setting to give, instead of ignoring it', () => {
    expect(() => configuredService({ env: { BAILIFF_API_KEY: 'secret-env-key' }, config: {} })).toThrow(
      'BAILIFF_API_KEY is set but no service URL is: set BAILIFF_API_URL to the moderation service the key belongs to',
    );
    expect(() => configuredService({ env: {}, config: { key: 'secret-file-key' } })).toThrow(
      /set api\.baseUrl in config\.yml/,
    );
    expect(() => configuredService({ flags: { apiKey: 'x' }, env: {}, config: {} })).toThrow(/set --api-url/);
  });

  it('refuses a URL without a key, naming both places to set it, never a key', () => {
    let message = '';
    try {
      resolveServiceConnection({ env: {}, config: { baseUrl: 'http://127.0.0.1:9000' }, embedded: none });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'the service URL comes from api.baseUrl in config.yml but no API key is set: set api.key in config.yml or BAILIFF_API_KEY',
    );
  });

  it('falls back to the embedded service recorded by `bailiff start`, and says so when there is none', () => {
    const folder = mkdtempSync(join(tmpdir(), 'bailiff-connection-'));
    folders.push(folder);
    const embedded = () => readEmbeddedService(folder);
    expect(() => resolveServiceConnection({ env: {}, config: {}, embedded })).toThrow(
      /no moderation service is configured/,
    );
    writeEmbeddedService(folder, EMBEDDED);
    expect(resolveServiceConnection({ env: {}, config: {}, embedded })).toMatchObject({
      baseUrl: EMBEDDED.url,
      apiKey: EMBEDDED.apiKey,
      keyFrom: 'embedded',
    });
    expect(configuredService({ env: {}, config: {} })).toBeUndefined();
  });

  it('names where a key came from in words an owner can act on', () => {
    expect(describeSource('environment', 'key')).toBe('BAILIFF_API_KEY');
    expect(describeSource('config.yml', 'key')).toBe('api.key in config.yml');
    expect(describeSource('embedded', 'key')).toBe("the embedded service's key (embedded-service.json)");
  });
});

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
