import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readReloadedSettings } from '../../plugin/config/reload-settings.js';
import { type BailiffConfig, bailiffConfigSchema } from '../../plugin/config/schema.js';
import { type MessageTable, messagesSchema } from '../../plugin/messages/schema.js';
import { openConfigFile } from '../../src/runtime/config-file.js';
import { ConfigError } from '../../src/runtime/errors.js';

const KEY = 'secret-key-never-shown';
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function dataFolder(configYaml: string, messagesYaml: string) {
  dir = mkdtempSync(join(tmpdir(), 'bailiff-reload-'));
  writeFileSync(join(dir, 'config.yml'), configYaml);
  writeFileSync(join(dir, 'messages.yml'), messagesYaml);
  const files = {
    config: openConfigFile<BailiffConfig>({ path: join(dir, 'config.yml'), schema: bailiffConfigSchema }),
    messages: openConfigFile<MessageTable>({ path: join(dir, 'messages.yml'), schema: messagesSchema }),
  };
  return { files, running: files.config.get() };
}

const RUNNING_CONFIG = `api:\n  baseUrl: http://127.0.0.1:1000\n  key: ${KEY}\nsync:\n  pollIntervalMs: 2000\n`;

describe('reading config.yml and messages.yml again', () => {
  it('applies other settings, keeps the running api section and names the api keys that changed', () => {
    const { files, running } = dataFolder(RUNNING_CONFIG, 'ban:\n  screen: "old"\n');
    writeFileSync(
      join(dir, 'config.yml'),
      'api:\n  baseUrl: http://127.0.0.1:2000\n  key: another-key\n  timeoutMs: 9000\nsync:\n  pollIntervalMs: 500\n',
    );
    writeFileSync(join(dir, 'messages.yml'), 'ban:\n  screen: "new"\n');

    const next = readReloadedSettings(files, running, {});
    expect(next.config.sync.pollIntervalMs).toBe(500);
    expect(next.config.api).toEqual(running.api);
    expect(next.messages['ban.screen']).toBe('new');
    expect(next.restartRequired).toEqual(['api.baseUrl', 'api.key', 'api.timeoutMs']);
    expect(JSON.stringify(next.restartRequired)).not.toContain(KEY);
  });

  it('needs no restart when the environment overrides the api settings that changed in the file', () => {
    const env = { BAILIFF_API_URL: 'http://127.0.0.1:3000', BAILIFF_API_KEY: 'from-env' };
    const { files, running } = dataFolder(RUNNING_CONFIG, '');
    writeFileSync(join(dir, 'config.yml'), 'api:\n  baseUrl: http://127.0.0.1:4000\n  key: changed\n');
    expect(readReloadedSettings(files, running, env).restartRequired).toEqual([]);
  });

  it.each([
    ['config.yml', 'sync:\n  pollIntervalMs: fast\n', 'sync.pollIntervalMs'],
    ['messages.yml', 'ban:\n  screen: 42\n', 'ban.screen'],
  ])('throws a ConfigError naming %s, the key, expected and received when it is invalid', (file, yaml, key) => {
    const { files, running } = dataFolder(RUNNING_CONFIG, 'ban:\n  screen: "old"\n');
    writeFileSync(join(dir, file), yaml);
    let thrown: unknown;
    try {
      readReloadedSettings(files, running, {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const error = thrown as ConfigError;
    expect(error.file).toContain(file);
    expect(error.issues).toEqual([
      expect.objectContaining({ key, expected: expect.any(String), received: expect.any(String) }),
    ]);
    expect(error.message).toContain(key);
    expect(error.message).not.toContain(KEY);
  });
});
