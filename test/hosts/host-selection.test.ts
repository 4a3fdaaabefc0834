import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFlyingSquidHost } from '../../src/hosts/flying-squid/flying-squid-host.js';
import { hostForEdition } from '../../src/hosts/game-server.js';
import { createSerenityHost } from '../../src/hosts/serenity/serenity-host.js';
import { loadServerSettings } from '../../src/hosts/server-settings.js';

describe('choosing the host from server.yml', () => {
  let serverDir: string;
  beforeEach(() => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-host-choice-'));
  });
  afterEach(() => rmSync(serverDir, { recursive: true, force: true }));

  it('runs flying-squid (java) unless the server folder asks for bedrock', async () => {
    expect(loadServerSettings(serverDir).edition).toBe('java');
    expect(await hostForEdition('java')).toBe(createFlyingSquidHost);

    writeFileSync(join(serverDir, 'server.yml'), 'edition: bedrock\ngeneration: void\n');
    const settings = loadServerSettings(serverDir);
    expect(settings).toMatchObject({ edition: 'bedrock', generation: 'void' });
    expect(await hostForEdition(settings.edition)).toBe(createSerenityHost);
  });

  it('refuses an unknown edition, naming the file, key and the editions it knows', () => {
    writeFileSync(join(serverDir, 'server.yml'), 'edition: pocket\n');
    expect(() => loadServerSettings(serverDir)).toThrow(
      /server\.yml:\n {2}edition: expected one of "java", "bedrock", received string "pocket"/,
    );
  });
});
