import type { Db } from './open-db.js';

/** One numbered schema change of one component. Versions start at 1 and never change once shipped. */
export interface SchemaMigration {
  version: number;
  name: string;
  up: string | ((db: Db) => void);
}

/**
 * Applies the component's migrations not yet recorded, each in its own transaction.
 * Components (outbox, cache, service) share one file, so versions are kept per component.
 */
export function applySchemaMigrations(db: Db, component: string, migrations: readonly SchemaMigration[]): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    component TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL,
    PRIMARY KEY (component, version)
  )`);
  const applied = new Set(
    db
      .prepare<[string], { version: number }>('SELECT version FROM schema_migrations WHERE component = ?')
      .all(component)
      .map((row) => row.version),
  );
  const record = db.prepare(
    'INSERT INTO schema_migrations (component, version, name, applied_at) VALUES (@component, @version, @name, @appliedAt)',
  );
  let count = 0;
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      if (typeof migration.up === 'string') db.exec(migration.up);
      else migration.up(db);
      record.run({ component, version: migration.version, name: migration.name, appliedAt: Date.now() });
    }).immediate();
    count += 1;
  }
  return count;
}
