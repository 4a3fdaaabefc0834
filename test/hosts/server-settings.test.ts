import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bundledServerSettingsPath,
  ensureServerSettingsFile,
  loadServerSettings,
  worldFolderOf,
} from '../../src/hosts/server-settings.js';

describe('server settings', () => {
  let serverDir: string;
  beforeEach(() => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-settings-'));
  });
  afterEach(() => rmSync(serverDir, { recursive: true, force: true }));

  it('uses config/server.yml, then <serverDir>/server.yml, then explicit overrides', () => {
    writeFileSync(join(serverDir, 'server.yml'), 'port: 25570\nops: [Alice]\nmotd: Mine\n');
    const settings = loadServerSettings(serverDir, { motd: 'Override', worldFolder: 'worlds/main' });
    expect(settings).toMatchObject({
      host: '0.0.0.0',
      port: 25570,
      version: '1.21.4',
      onlineMode: true,
      motd: 'Override',
      ops: ['Alice'],
      preLoginTimeoutMs: 5000,
    });
    expect(worldFolderOf(settings, serverDir)).toBe(join(serverDir, 'worlds/main'));
    expect(worldFolderOf({ ...settings, worldFolder: null }, serverDir)).toBeUndefined();
  });

  it('gives a new server folder a copy of the commented defaults and never overwrites an existing one', () => {
    expect(ensureServerSettingsFile(serverDir)).toBe(true);
    expect(readFileSync(join(serverDir, 'server.yml'), 'utf8')).toBe(readFileSync(bundledServerSettingsPath(), 'utf8'));

    writeFileSync(join(serverDir, 'server.yml'), 'port: 25570\n');
    expect(ensureServerSettingsFile(serverDir)).toBe(false);
    expect(readFileSync(join(serverDir, 'server.yml'), 'utf8')).toBe('port: 25570\n');
  });

  it('names the file, key, expectation and value of a bad setting', () => {
    writeFileSync(join(serverDir, 'server.yml'), 'port: high\nonlinemode: false\n');
    expect(() => loadServerSettings(serverDir)).toThrow(
      `invalid server settings ${join(serverDir, 'server.yml')}:\n  port: expected number, received string "high"\n  (document): expected no key "onlinemode" (did you mean "onlineMode"?), received a mapping`,
    );
  });

  it("accepts flying-squid's and server.properties' spellings of the same settings", () => {
    writeFileSync(
      join(serverDir, 'server.yml'),
      'online-mode: false\nmax-players: 5\nview-distance: 3\nserver-port: 25571\nserver-ip: 127.0.0.1\n',
    );
    expect(loadServerSettings(serverDir)).toMatchObject({
      onlineMode: false,
      maxPlayers: 5,
      viewDistance: 3,
      port: 25571,
      host: '127.0.0.1',
    });
  });

  it('refuses both spellings of one setting, naming them', () => {
    writeFileSync(join(serverDir, 'server.yml'), 'onlineMode: true\nonline-mode: false\n');
    expect(() => loadServerSettings(serverDir)).toThrow(
      `invalid server settings ${join(serverDir, 'server.yml')}:\n  online-mode: expected "onlineMode" or its other spelling "online-mode", not both, received boolean false`,
    );
  });

  it('checks a setting given in its other spelling like the setting itself', () => {
    writeFileSync(join(serverDir, 'server.yml'), 'max-players: many\n');
    expect(() => loadServerSettings(serverDir)).toThrow('  maxPlayers: expected number, received nothing');
  });

  it('suggests the nearest known key for a typo, and nothing for an unrelated key', () => {
    writeFileSync(join(serverDir, 'server.yml'), 'viewDistanse: 4\nmtod: x\nbanana: 1\n');
    expect(() => loadServerSettings(serverDir)).toThrow(
      'expected no key "viewDistanse" (did you mean "viewDistance"?), "mtod" (did you mean "motd"?), "banana", received a mapping',
    );
  });
});
