import { openSqliteStorage } from '../../src/service/store/open-storage.js';

/** Creates (or brings up to date) a SQLite file with the service's schema, as the service would. */
export async function migrateSqliteFile(path: string): Promise<void> {
  await (await openSqliteStorage(path)).close();
}
