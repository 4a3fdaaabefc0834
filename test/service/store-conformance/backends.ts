import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ServiceStoresPorts } from '../../../src/service/store/ports/stores.js';
import { openPostgresStorage, type PostgresStorage } from '../../../src/service/store/postgres/postgres-storage.js';
import type { PgStores } from '../../../src/service/store/postgres/stores.js';
import { openSqliteStorage } from '../../../src/service/store/sqlite-storage.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/** The stores both implementations provide, as the asynchronous ports declare them. */
export type ConformanceStores = Pick<ServiceStoresPorts, keyof PgStores>;

/** One implementation under test, fresh and empty for each test. */
export interface ConformanceStorage {
  dialect: 'sqlite' | 'postgres';
  stores: ConformanceStores;
  transaction<T>(work: (stores: ConformanceStores) => Promise<T>): Promise<T>;
}

/** A SQLite file per test with the service's schema, through the service's own SqliteStorage. */
function sqliteStorage(): { storage: ConformanceStorage; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-conformance-'));
  const storage = openSqliteStorage({ path: join(dir, 'service.sqlite') });
  return {
    storage,
    async close() {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Every table the schema made, emptied between tests (identities restart, so ids match a fresh database).
const EMPTY_TABLES = `DO $$ DECLARE names TEXT;
  BEGIN
    SELECT string_agg(quote_ident(tablename), ', ') INTO names FROM pg_tables
      WHERE schemaname = 'public' AND tablename LIKE 'service\\_%' AND tablename <> 'service_schema_migrations';
    EXECUTE 'TRUNCATE ' || names || ' RESTART IDENTITY CASCADE';
  END $$`;

/**
 * Registers hooks that give each test of the calling `describe` a fresh storage of `dialect`, and
 * returns a getter for it. PostgreSQL: one database per test file, emptied before each test.
 */
export function useConformanceStorage(dialect: 'sqlite' | 'postgres'): () => ConformanceStorage {
  let current: ConformanceStorage | undefined;
  if (dialect === 'sqlite') {
    let closeCurrent: (() => Promise<void>) | undefined;
    beforeEach(() => {
      const opened = sqliteStorage();
      current = opened.storage;
      closeCurrent = opened.close;
    });
    afterEach(async () => closeCurrent?.());
  } else {
    let database: TestDatabase | undefined;
    let postgres: PostgresStorage | undefined;
    beforeAll(async () => {
      database = await createTestDatabase();
      postgres = await openPostgresStorage(database.url);
    });
    afterAll(async () => {
      await postgres?.close();
      await database?.drop();
    });
    beforeEach(async () => {
      await postgres!.pool.query(EMPTY_TABLES);
      current = postgres as unknown as ConformanceStorage;
    });
  }
  return () => {
    if (!current) throw new Error(`no ${dialect} storage: the hooks did not run`);
    return current;
  };
}

export const DIALECTS = ['sqlite', 'postgres'] as const;
