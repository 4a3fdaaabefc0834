import { MigrationError } from '../errors.js';
import type { MigrationSource, MigrationSourceKind } from '../types.js';
import { openEssentialsSource } from './essentials.js';
import { openVanillaSource } from './vanilla.js';

/** Opens a source by kind; `nowMs` decides which entries have already expired. */
export function openSource(from: MigrationSourceKind, dir: string, nowMs: () => number): Promise<MigrationSource> {
  switch (from) {
    case 'vanilla':
      return openVanillaSource(dir, nowMs);
    case 'essentials':
      return openEssentialsSource(dir, nowMs);
    default:
      throw new MigrationError('invalid_option', `unknown source "${String(from)}": expected vanilla or essentials`);
  }
}
