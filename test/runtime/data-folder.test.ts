import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFolderOf, prepareDataFolder } from '../../src/runtime/data-folder.js';
import { memoryLogger } from './helpers/memory-logger.js';
import { tempDir } from './helpers/temp-dir.js';

describe("a plugin's data folder, apart from its code", () => {
  const dir = tempDir();
  afterEach(() => dir.remove());

  it('is <server>/plugin-data/<name>/, created empty', () => {
    const folder = prepareDataFolder(dir.path, 'Greeter', memoryLogger());
    expect(folder).toBe(join(dir.path, 'plugin-data', 'Greeter'));
    expect(existsSync(folder)).toBe(true);
  });

  it('takes over the data an older version kept in plugins/<name>/ (a folder without plugin.yml)', () => {
    dir.write('plugins/Bailiff/config.yml', 'appealUrl: x\n');
    dir.write('plugins/Bailiff/bailiff.db', 'db');
    const logger = memoryLogger();
    const folder = prepareDataFolder(dir.path, 'Bailiff', logger);
    expect(readFileSync(join(folder, 'config.yml'), 'utf8')).toBe('appealUrl: x\n');
    expect(readFileSync(join(folder, 'bailiff.db'), 'utf8')).toBe('db');
    expect(existsSync(join(dir.path, 'plugins', 'Bailiff'))).toBe(false);
    expect(logger.lines[0]?.message).toMatch(
      /^\[Bailiff\] moved its data from .*plugins.Bailiff to .*plugin-data.Bailiff$/,
    );
  });

  it("never moves a plugin's code folder, nor touches existing data", () => {
    dir.write('plugins/Greeter/plugin.yml', 'name: Greeter\n');
    dir.write('plugin-data/Other/config.yml', 'kept: true\n');
    dir.write('plugins/Other/config.yml', 'stale: true\n');
    prepareDataFolder(dir.path, 'Greeter', memoryLogger());
    prepareDataFolder(dir.path, 'Other', memoryLogger());
    expect(existsSync(join(dir.path, 'plugins', 'Greeter', 'plugin.yml'))).toBe(true);
    expect(readFileSync(join(dataFolderOf(dir.path, 'Other'), 'config.yml'), 'utf8')).toBe('kept: true\n');
    expect(existsSync(join(dir.path, 'plugins', 'Other', 'config.yml'))).toBe(true);
  });
});
