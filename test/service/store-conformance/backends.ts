import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage, openSqliteStorage } from '../../../src/service/store/open-storage.js';
import type { ServiceStoresPorts } from '../../../src/service/store/ports/stores.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/** The stores the one implementation provides, as the asynchronous ports declare them. */
export type ConformanceStores = ServiceStoresPorts;

/** The storage under test, fresh and empty for each test. */
export interface ConformanceStorage {
  dialect: 'sqlite' | 'postgres';
  stores: ConformanceStores;
  transaction<T>(work: (stores: ConformanceStores) => Promise<T>): Promise<T>;
}

/** The one store (written once with Kysely) on each database. */
export type Backend = 'sqlite' | 'postgres';

/** A SQLite file per test with the service's schema. */
async function sqliteStorage(): Promise<{ storage: ConformanceStorage; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-conformance-'));
  const storage = await openSqliteStorage(join(dir, 'service.sqlite'));
  return {
    storage,
    async close() {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Every table the schema made, emptied between tests (identities restart, so ids match a fresh database); the
// migrator's records stay.
const EMPTY_TABLES = `DO $$ DECLARE names TEXT;
  BEGIN
    SELECT string_agg(quote_ident(tablename), ', ') INTO names FROM pg_tables
      WHERE schemaname = 'public' AND tablename LIKE 'service\\_%' AND tablename <> 'service_schema_migrations'
        AND tablename NOT LIKE 'service\\_kysely\\_%';
    EXECUTE 'TRUNCATE ' || names || ' RESTART IDENTITY CASCADE';
  END $$`;

/** One PostgreSQL database for the calling file, emptied before each test. */
function usePostgres(): () => ConformanceStorage {
  let database: TestDatabase | undefined;
  let storage: KyselyStorage | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openPostgresStorage(database.url);
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await sql.raw(EMPTY_TABLES).execute(storage!.db);
  });
  return () => storage!;
}

/**
 * Registers hooks that give each test of the calling `describe` a fresh storage of `backend`, and
 * returns a getter for it. PostgreSQL: one database per test file, emptied before each test.
 */
export function useConformanceStorage(backend: Backend): () => ConformanceStorage {
  let current: ConformanceStorage | undefined;
  if (backend === 'sqlite') {
    let closeCurrent: (() => Promise<void>) | undefined;
    beforeEach(async () => {
      const opened = await sqliteStorage();
      current = opened.storage;
      closeCurrent = opened.close;
    });
    afterEach(async () => closeCurrent?.());
  } else {
    const postgres = usePostgres();
    beforeEach(() => {
      current = postgres();
    });
  }
  return () => {
    if (!current) throw new Error(`no ${backend} storage: the hooks did not run`);
    return current;
  };
}

export const DIALECTS = ['sqlite', 'postgres'] as const;
/** Both databases, through the one store. */
export const BACKENDS = DIALECTS;
