import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/db/open-db.js';
import { applySchemaMigrations } from '../../../src/db/schema-migrations.js';
import { SERVICE_SCHEMA_MIGRATIONS } from '../../../src/service/db/schema.js';
import { PgDb } from '../../../src/service/sharing/pg-db.js';
import { openPostgresStorage, type PostgresStorage } from '../../../src/service/store/postgres/postgres-storage.js';
import { applyPgSchemaMigrations, PG_SCHEMA_MIGRATIONS } from '../../../src/service/store/postgres/schema.js';
import { createTestDatabase, type TestDatabase, testPool } from '../../support/postgres.js';

/** Columns PostgreSQL has that SQLite does not, on purpose. */
const POSTGRES_ONLY_COLUMNS = new Set([
  'service_punishments.row_id',
  'service_tickets.row_id',
  // Several instances on one database (schema-several-instances.ts).
  'service_webhook_deliveries.leased_until',
  'service_webhook_deliveries.leased_by',
  'service_migration_uploads.seq',
]);

function sqliteSchema(): { columns: Map<string, string[]>; indexes: string[] } {
  const db = openDb(':memory:');
  try {
    applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);
    const indexes = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((row) => row.name);
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'service\\_%' ESCAPE '\\'",
      )
      .all()
      .map((row) => row.name);
    const columns = new Map(
      tables.map((table) => [
        table,
        db
          .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .all()
          .map((row) => row.name)
          .sort(),
      ]),
    );
    return { columns, indexes };
  } finally {
    db.close();
  }
}

/**
 * Every table, column and index of the SQLite schema exists on PostgreSQL: a SQLite migration without
 * its PostgreSQL step (src/service/store/postgres/schema.ts) fails here.
 */
describe('PostgreSQL schema against the SQLite schema', () => {
  let database: TestDatabase;
  let storage: PostgresStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openPostgresStorage(database.url);
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
  });

  it('has every table and column SQLite has', async () => {
    const result = await storage.pool.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const postgres = new Map<string, string[]>();
    for (const { table_name, column_name } of result.rows) {
      if (POSTGRES_ONLY_COLUMNS.has(`${table_name}.${column_name}`)) continue;
      postgres.set(table_name, [...(postgres.get(table_name) ?? []), column_name]);
    }
    for (const [table, columns] of sqliteSchema().columns) {
      expect(postgres.get(table)?.sort(), `table ${table}`).toEqual(columns);
    }
  });

  it('has every index SQLite has, by name', async () => {
    const result = await storage.pool.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'",
    );
    const postgres = result.rows.map((row) => row.indexname);
    expect(postgres).toEqual(expect.arrayContaining(sqliteSchema().indexes));
  });
});

describe('PostgreSQL schema steps applied out of order', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('gives a database migrated before step 5 existed (past step 11) the ticket list indexes', async () => {
    const pool = testPool(database.url);
    try {
      const db = new PgDb(pool);
      const withoutStep5 = PG_SCHEMA_MIGRATIONS.filter((migration) => migration.version !== 5);
      await applyPgSchemaMigrations(db, withoutStep5);
      await pool.query(`INSERT INTO service_networks (id, name) VALUES (1, 'alpha');
        INSERT INTO service_tickets (network_id, id, type, subject, description, status, priority, creator_uuid,
          creator_name, tags, created_at, updated_at)
        VALUES (1, 't1', 'bug', 's', 'd', 'Open', 'normal', 'u', 'n', '[]', 1, 1)`);
      expect(await applyPgSchemaMigrations(db)).toEqual([5]);
      const indexes = await pool.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'service_tickets_status_assignee_type_created'",
      );
      expect(indexes.rows[0]?.indexdef).toContain('created_at, row_id)');
      const row = await pool.query('SELECT row_id FROM service_tickets');
      expect(row.rows).toEqual([{ row_id: '1' }]);
    } finally {
      await pool.end();
    }
  });
});
