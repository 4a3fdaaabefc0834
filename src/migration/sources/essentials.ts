import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { errorMessage, MigrationError } from '../errors.js';
import { mapEssentialsUser } from '../mapping/essentials-user.js';
import { normalizeUuid } from '../mapping/uuid.js';
import type { MigrationSource, SourceItem } from '../types.js';

export const ESSENTIALS_FILE_SKIP = {
  badFileName: 'userdata file name is not <uuid>.yml',
  badYaml: 'userdata file is not valid YAML',
  unreadable: 'userdata file could not be read',
} as const;

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** `dir` itself when it holds the .yml files, else its `userdata/` folder. */
async function findUserdata(dir: string): Promise<string> {
  const nested = join(dir, 'userdata');
  if (await isDirectory(nested)) return nested;
  if (await isDirectory(dir)) return dir;
  throw new MigrationError(
    'source',
    `Essentials userdata folder not found: ${dir} (expected plugins/Essentials or its userdata folder)`,
  );
}

async function readUser(folder: string, fileName: string, nowMs: number): Promise<SourceItem> {
  const where = `userdata/${fileName}`;
  const uuid = normalizeUuid(basename(fileName, '.yml'));
  if (!uuid) return { kind: 'skipped', reason: ESSENTIALS_FILE_SKIP.badFileName, where };
  const path = join(folder, fileName);
  let text: string;
  let savedAtMs: number;
  try {
    [text, savedAtMs] = await Promise.all([readFile(path, 'utf8'), stat(path).then((info) => info.mtimeMs)]);
  } catch (error) {
    return { kind: 'skipped', reason: ESSENTIALS_FILE_SKIP.unreadable, where: `${where}: ${errorMessage(error)}` };
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    const firstLine = errorMessage(error).split('\n')[0];
    return { kind: 'skipped', reason: ESSENTIALS_FILE_SKIP.badYaml, where: `${where}: ${firstLine}` };
  }
  return mapEssentialsUser({ uuid, document, savedAtMs: Math.floor(savedAtMs), where }, nowMs);
}

/**
 * EssentialsX `userdata/*.yml`, one file read and parsed at a time. The listing of file names is
 * the only thing held for the whole run.
 */
export async function openEssentialsSource(dir: string, nowMs: () => number): Promise<MigrationSource> {
  const folder = await findUserdata(dir);
  const fileNames = (await readdir(folder)).filter((name) => name.endsWith('.yml')).sort();
  async function* items(): AsyncGenerator<SourceItem> {
    for (const fileName of fileNames) yield await readUser(folder, fileName, nowMs());
  }
  return { total: fileNames.length, items };
}
