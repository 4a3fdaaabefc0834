import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { openConfigFile } from '../../src/runtime/config-file.js';
import { prepareDataFolder } from '../../src/runtime/data-folder.js';
import { memoryLogger } from './helpers/memory-logger.js';
import { tempDir } from './helpers/temp-dir.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('files holding keys and addresses are private', () => {
  const dir = tempDir();
  afterEach(() => dir.remove());

  it('creates a data folder 0700, a copied config.yml 0600 and a new database (and its -wal) 0600', () => {
    const folder = prepareDataFolder(dir.path, 'Bailiff', memoryLogger());
    expect(modeOf(folder)).toBe(0o700);

    const defaults = dir.write('bundle/config.yml', 'api:\n  key: k\n');
    chmodSync(defaults, 0o644);
    openConfigFile({ path: join(folder, 'config.yml'), defaultsPath: defaults });
    expect(modeOf(join(folder, 'config.yml'))).toBe(0o600);

    const db = openDb(join(folder, 'bailiff.db'));
    db.exec("CREATE TABLE addresses (ip TEXT); INSERT INTO addresses VALUES ('203.0.113.7')");
    expect(modeOf(join(folder, 'bailiff.db'))).toBe(0o600);
    expect(existsSync(join(folder, 'bailiff.db-wal'))).toBe(true);
    expect(modeOf(join(folder, 'bailiff.db-wal'))).toBe(0o600);
    expect(modeOf(join(folder, 'bailiff.db-shm'))).toBe(0o600);
    db.close();
  });

  it('tightens an existing folder and its files at start, saying so once per file', () => {
    const folder = join(dir.path, 'plugin-data', 'Bailiff');
    mkdirSync(join(folder, 'backups'), { recursive: true, mode: 0o755 });
    chmodSync(folder, 0o755);
    for (const file of ['config.yml', 'bailiff.db', 'bailiff.db-wal', 'embedded-service.json']) {
      writeFileSync(join(folder, file), 'x');
      chmodSync(join(folder, file), 0o644);
    }
    const logger = memoryLogger();
    prepareDataFolder(dir.path, 'Bailiff', logger);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(join(folder, 'backups'))).toBe(0o700);
    for (const file of ['config.yml', 'bailiff.db', 'bailiff.db-wal', 'embedded-service.json']) {
      expect(modeOf(join(folder, file))).toBe(0o600);
    }
    expect(logger.lines.map((line) => line.message)).toContain(
      `[Bailiff] tightened ${join(folder, 'config.yml')} from 0644 to 0600: only this user may read it`,
    );
    expect(logger.lines).toHaveLength(6);

    const again = memoryLogger();
    prepareDataFolder(dir.path, 'Bailiff', again);
    expect(again.lines).toEqual([]);
  });
});
