import { MigrationError } from '../errors.js';
import { isDatabaseSource, MIGRATION_SOURCES, type MigrationSource, type MigrationSourceKind } from '../types.js';
import { openDatabaseSource } from './database/index.js';
import { openEssentialsSource } from './essentials.js';
import { openExportedFileSource } from './exported-file.js';
import { openVanillaSource } from './vanilla.js';

export interface SourceSettings {
  from: MigrationSourceKind;
  dir: string;
  databaseUrl?: string | undefined;
  tablePrefix?: string | undefined;
}

/** Opens a source by kind; `nowMs` decides which entries have already expired. */
export function openSource(settings: SourceSettings, nowMs: () => number): Promise<MigrationSource> {
  const { from } = settings;
  if (isDatabaseSource(from)) {
    return openDatabaseSource(from, settings.databaseUrl ?? '', settings.tablePrefix, nowMs);
  }
  switch (from) {
    case 'vanilla':
      return openVanillaSource(settings.dir, nowMs);
    case 'essentials':
      return openEssentialsSource(settings.dir, nowMs);
    case 'json':
      return openExportedFileSource(settings.dir);
    default:
      throw new MigrationError(
        'invalid_option',
        `unknown source "${String(from)}": expected one of ${MIGRATION_SOURCES.join(', ')}`,
      );
  }
}
