import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { KyselyStorage } from '../../../src/service/next/kysely-storage.js';
import {
  openPostgresStorage as openNextPostgresStorage,
  openSqliteStorage as openNextSqliteStorage,
} from '../../../src/service/next/open-storage.js';
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

/**
 * The old stores on each database, and the one implementation written once with Kysely
 * (src/service/next/) on each (`next-*`).
 */
export type Backend = 'sqlite' | 'postgres' | 'next-sqlite' | 'next-postgres';

/** A SQLite file per test with the service's schema, through the service's own SqliteStorage. */
async function sqliteStorage(backend: 'sqlite' | 'next-sqlite'): Promise<{
  storage: ConformanceStorage;
  close(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-conformance-'));
  const path = join(dir, 'service.sqlite');
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (backend === 'sqlite') {
    const storage = openSqliteStorage({ path });
    return {
      storage,
      async close() {
        await storage.close();
        remove();
      },
    };
  }
  const next = await openNextSqliteStorage(path);
  return {
    storage: next,
    async close() {
      await next.close();
      remove();
    },
  };
}

// Every table the schema made, emptied between tests (identities restart, so ids match a fresh database); the
// records of the schema steps stay.
const EMPTY_TABLES = `DO $$ DECLARE names TEXT;
  BEGIN
    SELECT string_agg(quote_ident(tablename), ', ') INTO names FROM pg_tables
      WHERE schemaname = 'public' AND tablename LIKE 'service\\_%' AND tablename <> 'service_schema_migrations'
        AND tablename NOT LIKE 'service\\_kysely\\_%';
    EXECUTE 'TRUNCATE ' || names || ' RESTART IDENTITY CASCADE';
  END $$`;

/** One PostgreSQL database for the calling file, emptied before each test. */
function usePostgres(backend: 'postgres' | 'next-postgres'): () => ConformanceStorage {
  let database: TestDatabase | undefined;
  let old: PostgresStorage | undefined;
  let next: KyselyStorage | undefined;
  let storage: ConformanceStorage | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    if (backend === 'postgres') {
      old = await openPostgresStorage(database.url);
      storage = old as unknown as ConformanceStorage;
    } else {
      next = await openNextPostgresStorage(database.url);
      storage = next;
    }
  });
  afterAll(async () => {
    await next?.close();
    await old?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    if (old) await old.pool.query(EMPTY_TABLES);
    else await sql.raw(EMPTY_TABLES).execute(next!.db);
  });
  return () => storage!;
}

/**
 * Registers hooks that give each test of the calling `describe` a fresh storage of `backend`, and
 * returns a getter for it. PostgreSQL: one database per test file, emptied before each test.
 */
export function useConformanceStorage(backend: Backend): () => ConformanceStorage {
  let current: ConformanceStorage | undefined;
  if (backend === 'sqlite' || backend === 'next-sqlite') {
    let closeCurrent: (() => Promise<void>) | undefined;
    beforeEach(async () => {
      const opened = await sqliteStorage(backend);
      current = opened.storage;
      closeCurrent = opened.close;
    });
    afterEach(async () => closeCurrent?.());
  } else {
    const postgres = usePostgres(backend);
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
/** Both databases through the old stores and through the stores written once (src/service/next/). */
export const BACKENDS = [...DIALECTS, 'next-sqlite', 'next-postgres'] as const;
