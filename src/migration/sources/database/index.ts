import { MigrationError } from '../../errors.js';
import type { DatabaseSourceKind, MigrationSource } from '../../types.js';
import { advancedBanReader } from './advancedban.js';
import { banManagerReader } from './banmanager.js';
import { openSourceDatabase, type SourceDatabase } from './connection.js';
import { libertyBansReader } from './libertybans.js';
import { liteBansReader } from './litebans.js';
import { countRows, hasTable } from './paged.js';
import { mapPluginPunishment } from './plugin-punishment.js';
import type { PluginReader } from './reader.js';

const READERS: Record<DatabaseSourceKind, PluginReader> = {
  litebans: liteBansReader,
  libertybans: libertyBansReader,
  advancedban: advancedBanReader,
  banmanager: banManagerReader,
};

async function countEntries(db: SourceDatabase, kind: DatabaseSourceKind, tables: string[]): Promise<number> {
  let total = 0;
  for (const table of tables) {
    if (!(await hasTable(db, table))) {
      throw new MigrationError(
        'source',
        `the ${kind} table ${table} is not in this database: check --database-url and --table-prefix`,
      );
    }
    total += await countRows(db, table);
  }
  return total;
}

/**
 * A plugin's punishments read from its database, one player object per punishment (the file
 * format lets the service merge players by uuid). The connection closes when reading ends.
 */
export async function openDatabaseSource(
  kind: DatabaseSourceKind,
  databaseUrl: string,
  tablePrefix: string | undefined,
  nowMs: () => number,
): Promise<MigrationSource> {
  const reader = READERS[kind];
  const prefix = tablePrefix ?? reader.defaultPrefix;
  const db = await openSourceDatabase(databaseUrl);
  let total: number;
  try {
    total = await countEntries(db, kind, reader.tables(prefix));
  } catch (error) {
    await db.close().catch(() => {});
    if (error instanceof MigrationError) throw error;
    throw new MigrationError('source', `cannot read the ${kind} tables: ${(error as Error).message}`, { cause: error });
  }
  return {
    total,
    async *items() {
      try {
        const now = nowMs();
        for await (const row of reader.read(db, prefix, now)) {
          yield 'skip' in row
            ? { kind: 'skipped' as const, reason: row.skip, where: row.where }
            : mapPluginPunishment(row, now);
        }
      } catch (error) {
        if (error instanceof MigrationError) throw error;
        throw new MigrationError('source', `reading the ${kind} tables failed: ${(error as Error).message}`, {
          cause: error,
        });
      } finally {
        await db.close().catch(() => {});
      }
    },
  };
}
