import { chmodSync, closeSync, existsSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../ports/logger.js';

/** Only the server's own user may list or enter the folder. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Only the server's own user may read or write the file (it holds a key or players' addresses). */
export const PRIVATE_FILE_MODE = 0o600;

// Windows has no such modes: chmod there only toggles read-only.
const hasModes = process.platform !== 'win32';

function tighten(path: string, mode: number, logger: Logger, prefix: string): void {
  const current = statSync(path).mode & 0o777;
  if ((current & ~mode) === 0) return;
  chmodSync(path, current & mode);
  logger.info(
    `${prefix}tightened ${path} from ${current.toString(8).padStart(4, '0')} to ${(current & mode).toString(8).padStart(4, '0')}: only this user may read it`,
  );
}

/**
 * Makes `folder` 0700 and every file directly in it 0600 (a sub-folder 0700, not its contents),
 * logging each change: config files, databases with their -wal and -shm, and recorded keys there
 * are readable by the server's own user only.
 */
export function keepFolderPrivate(folder: string, logger: Logger, prefix = ''): void {
  if (!hasModes || !existsSync(folder)) return;
  tighten(folder, PRIVATE_FOLDER_MODE, logger, prefix);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isFile()) tighten(path, PRIVATE_FILE_MODE, logger, prefix);
    else if (entry.isDirectory()) tighten(path, PRIVATE_FOLDER_MODE, logger, prefix);
  }
}

/** Creates an empty file readable by its owner only, unless it exists (so what is written to it later starts private). */
export function createPrivateFile(path: string): void {
  if (existsSync(path)) return;
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}

/** Sets a file the runtime just created (a copied default) to 0600. */
export function makeFilePrivate(path: string): void {
  if (hasModes) chmodSync(path, PRIVATE_FILE_MODE);
}
