import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveApiConnection } from '../../plugin/config/api-connection.js';
import { readEmbeddedService, writeEmbeddedService } from '../../plugin/config/embedded-service.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';

const folders: string[] = [];
const dataFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'bailiff-connection-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('which service the plugin talks to', () => {
  it('uses config.yml when api.baseUrl is set', () => {
    const config = bailiffConfigSchema.parse({ api: { baseUrl: 'http://127.0.0.1:9000', key: 'k', platform: 'game' } });
    expect(resolveApiConnection(config, dataFolder())).toEqual({
      baseUrl: 'http://127.0.0.1:9000',
      apiKey: 'k',
      platform: 'game',
      source: 'config',
    });
  });

  it('refuses a base URL without a key, naming both places to set it', () => {
    const config = bailiffConfigSchema.parse({ api: { baseUrl: 'http://127.0.0.1:9000' } });
    expect(() => resolveApiConnection(config, dataFolder())).toThrow(/api\.key is empty.*BAILIFF_API_KEY/);
  });

  it('falls back to the embedded service recorded by `bailiff start`', () => {
    const folder = dataFolder();
    const config = bailiffConfigSchema.parse({});
    expect(() => resolveApiConnection(config, folder)).toThrow(/api\.baseUrl is empty and no embedded service/);
    const embedded = {
      url: 'http://127.0.0.1:1234',
      apiKey: 'demo-key-123',
      adminToken: 't',
      network: 'demo',
      platform: 'minecraft',
    };
    writeEmbeddedService(folder, embedded);
    expect(readEmbeddedService(folder)).toEqual(embedded);
    expect(resolveApiConnection(config, folder)).toMatchObject({ baseUrl: embedded.url, source: 'embedded' });
  });
});
