import type { ExtensionSupportStore } from '../../src/api/extension-support.js';
import type { ExtensionName } from '../../src/contract/endpoints.js';
import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';

const MIGRATIONS = [
  {
    version: 1,
    name: 'extensions the service answered 404',
    up: `
      CREATE TABLE service_extensions_missing (
        name TEXT PRIMARY KEY,
        missing_until INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
];

/** Keeps in the plugin's database which extensions the service lacks, so a restart does not ask again at once. */
export function sqliteExtensionStore(db: Db): ExtensionSupportStore {
  applySchemaMigrations(db, 'service-extensions', MIGRATIONS);
  const all = db.prepare<[], { name: string; missingUntil: number }>(
    'SELECT name, missing_until AS missingUntil FROM service_extensions_missing',
  );
  const save = db.prepare<{ name: string; missingUntil: number }>(
    'INSERT OR REPLACE INTO service_extensions_missing (name, missing_until) VALUES (@name, @missingUntil)',
  );
  const remove = db.prepare<[string]>('DELETE FROM service_extensions_missing WHERE name = ?');
  return {
    load: () => all.all(),
    save: (name: ExtensionName, missingUntil: number) => save.run({ name, missingUntil }),
    remove: (name: ExtensionName) => remove.run(name),
  };
}
