import { join } from 'node:path';
import type { MigrationSourceKind } from './types.js';

/**
 * Where a source lives inside a server folder: the folder itself for vanilla
 * (`banned-players.json`), `plugins/Essentials` for EssentialsX. For the in-game command.
 */
export function sourceDirFor(from: MigrationSourceKind, serverDir: string): string {
  return from === 'vanilla' ? serverDir : join(serverDir, 'plugins', 'Essentials');
}
