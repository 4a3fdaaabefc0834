import { Kysely } from 'kysely';
import { openDb } from '../../db/open-db.js';
import { startWalCheckpointer } from '../../db/wal-checkpointer.js';
import type { Logger } from '../../ports/logger.js';
import { ConnectionWatch } from '../db/dialect/connection-watch.js';
import { postgresChoices } from '../db/dialect/postgres-choices.js';
import { createPgPool, describeDatabaseUrl, postgresKyselyDialect } from '../db/dialect/postgres-driver.js';
import { sqliteChoices } from '../db/dialect/sqlite-choices.js';
import { SqliteRehearsal, SqliteShortcut, sqliteKyselyDialect } from '../db/dialect/sqlite-driver.js';
import { migrateServiceSchema } from '../db/migrate.js';
import type { ServiceTables } from '../db/tables.js';
import { KyselyStorage, TransactionScope } from './kysely-storage.js';
import type { StoreOptions } from './stores.js';
import { instanceLeases } from './webhook-deliveries.js';

/** How much of the file SQLite reads through a memory map (see docs/operators/service-at-scale.md). */
const MMAP_BYTES = 256 * 1024 * 1024;
/**
 * One service at a time serves a SQLite file: a restarted one holds the webhook leases of the one
 * before, so a delivery left unanswered at a stop is sent again at once, not when its lease ends.
 */
const SQLITE_LEASE_HOLDER = 'sqlite-file';

export interface OpenStorageOptions extends StoreOptions {
  logger?: Logger;
  /** SQLite: keep the WAL short from a worker thread, off the request path. @default false */
  checkpointInBackground?: boolean;
  /** PostgreSQL: connections the pool opens at most. @default 10 */
  maxConnections?: number;
}

/** Opens (creating when missing) the SQLite file and brings its schema up to date. */
export async function openSqliteStorage(path: string, options: OpenStorageOptions = {}): Promise<KyselyStorage> {
  const file = openDb(path);
  // Pages read through memory instead of a read() each: about a fifth off a login check's queries on a large file.
  file.pragma(`mmap_size = ${MMAP_BYTES}`);
  const scope = new TransactionScope();
  const watch = new ConnectionWatch();
  // A database in memory starts empty at every start: no storm of a network meets it, nothing to rehearse.
  const rehearsal = file.memory ? undefined : new SqliteRehearsal();
  const shortcut = new SqliteShortcut();
  const db = new Kysely<ServiceTables>({
    dialect: sqliteKyselyDialect(file, () => scope.refuseInside(), watch, rehearsal, shortcut),
  });
  try {
    await migrateServiceSchema(db, sqliteChoices);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // Every login check commits; a checkpoint inside one of those commits would be its p99.
  const checkpointer =
    options.checkpointInBackground && path !== ':memory:'
      ? startWalCheckpointer(file, options.logger ? { logger: options.logger } : {})
      : undefined;
  const leases = options.leases ?? { ...instanceLeases(), instanceId: SQLITE_LEASE_HOLDER };
  const stopCheckpoints = async () => checkpointer?.stop();
  return new KyselyStorage(
    db,
    sqliteChoices,
    scope,
    { ...options, leases },
    stopCheckpoints,
    watch,
    undefined,
    rehearsal,
    shortcut,
  );
}

/** Connects, brings the schema up to date and returns the storage. */
export async function openPostgresStorage(
  databaseUrl: string,
  options: OpenStorageOptions = {},
): Promise<KyselyStorage> {
  const pool = createPgPool(databaseUrl, options);
  const scope = new TransactionScope();
  const watch = new ConnectionWatch();
  const db = new Kysely<ServiceTables>({ dialect: postgresKyselyDialect(pool, () => scope.refuseInside(), watch) });
  try {
    await migrateServiceSchema(db, postgresChoices);
  } catch (error) {
    await db.destroy().catch(() => {});
    const problem = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot open the PostgreSQL database ${describeDatabaseUrl(databaseUrl)}: ${problem}`, {
      cause: error,
    });
  }
  return new KyselyStorage(db, postgresChoices, scope, options, async () => {}, watch, pool);
}
