import { type Db, openDb } from '../../db/open-db.js';
import { applySchemaMigrations } from '../../db/schema-migrations.js';
import { startWalCheckpointer, type WalCheckpointer } from '../../db/wal-checkpointer.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { SERVICE_SCHEMA_MIGRATIONS } from '../db/schema.js';
import { refreshStatistics } from '../db/statistics.js';
import { sqliteUnavailable } from './database-unavailable.js';
import type { SchemaStatus, ServiceStorage, StorageLoad } from './ports/storage.js';
import type { ServiceStoresPorts } from './ports/stores.js';
import { compareSchema } from './schema-status.js';
import { createSqliteStores, type Promised, type SqliteStores } from './sqlite-stores.js';
import { StorageLock } from './storage-lock.js';

type Gate = <T>(call: () => T) => Promise<T>;

/** Busy past the busy timeout, out of disk, failing to read or write: a DatabaseUnavailableError (a 503). */
function rethrowUnavailable(error: unknown): never {
  throw sqliteUnavailable(error) ?? error;
}

/** How much of the file SQLite reads through a memory map (see docs/operators/service-at-scale.md). */
const MMAP_BYTES = 256 * 1024 * 1024;

/** Every method a store instance has (its class's and their parents'), but the constructor. */
function methodNames(store: object): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(store); proto && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') {
        names.push(name);
      }
    }
    proto = Object.getPrototypeOf(proto);
  }
  return names;
}

function promisedStore<Store extends object>(store: Store, gate: Gate): Promised<Store> {
  const promised: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of methodNames(store)) {
    const method = (store as Record<string, (...args: unknown[]) => unknown>)[name]!;
    promised[name] = (...args) => gate(() => method.apply(store, args));
  }
  return promised as Promised<Store>;
}

function promisedStores(stores: SqliteStores, gate: Gate): ServiceStoresPorts {
  const ports: Record<string, unknown> = {};
  for (const [name, store] of Object.entries(stores)) ports[name] = promisedStore(store, gate);
  return ports as unknown as ServiceStoresPorts;
}

export interface SqliteStorageOptions {
  /** A file path, or `:memory:`. */
  path: string;
  logger?: Logger;
  /** What a key's grace period is measured by. @default the system clock */
  clock?: Clock;
}

/**
 * The service's storage in one SQLite file through better-sqlite3, whose calls are synchronous:
 * the stores stay synchronous and are handed out behind promises. A transaction holds one lock
 * per database from BEGIN IMMEDIATE to COMMIT so no other call interleaves across its awaits.
 */
export class SqliteStorage implements ServiceStorage {
  readonly dialect = 'sqlite';
  readonly stores: ServiceStoresPorts;
  private readonly transactionStores: ServiceStoresPorts;
  private readonly lock = new StorageLock();
  // Prepared once: exec would compile them again for every transaction, on the login check's path.
  private readonly begin;
  private readonly commit;
  private readonly rollback;
  /** While set, transactions are savepoints inside the rehearsal's transaction (see {@link rehearse}). */
  private rehearsal: { begin(): void; commit(): void; rollback(): void } | undefined;
  private readonly appliedSteps;
  private checkpointer: WalCheckpointer | undefined;
  private closing: Promise<void> | undefined;

  /** Takes an open database whose service schema is current; {@link openSqliteStorage} opens one. */
  constructor(
    /** SQLite only: query plans, statistics and fixtures of tests and benches. */
    readonly db: Db,
    logger?: Logger,
    clock?: Clock,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.appliedSteps = db.prepare<[], { version: number }>(
      "SELECT version FROM schema_migrations WHERE component = 'service'",
    );
    const stores = createSqliteStores(db, logger, clock);
    this.stores = promisedStores(stores, (call) => this.lock.whenFree(call).catch(rethrowUnavailable));
    this.transactionStores = promisedStores(stores, (call) => this.insideOnly(call).catch(rethrowUnavailable));
  }

  async transaction<T>(work: (stores: ServiceStoresPorts) => Promise<T>): Promise<T> {
    return this.transactionOnce(work).catch(rethrowUnavailable);
  }

  private transactionOnce<T>(work: (stores: ServiceStoresPorts) => Promise<T>): Promise<T> {
    return this.lock.holding(async () => {
      const rehearsal = this.rehearsal;
      if (rehearsal) rehearsal.begin();
      else this.begin.run();
      try {
        const result = await work(this.transactionStores);
        if (rehearsal) rehearsal.commit();
        else this.commit.run();
        return result;
      } catch (error) {
        // Also after a failed COMMIT (SQLITE_BUSY leaves the transaction open): nothing stays half done.
        if (rehearsal) rehearsal.rollback();
        else if (this.db.inTransaction) this.rollback.run();
        throw error;
      }
    });
  }

  /**
   * Runs `work` inside one transaction that is rolled back when it ends, so whatever the work
   * wrote, through the stores or their transactions (savepoints meanwhile), leaves no row behind:
   * the start-up warm-up's rehearsal. Only while nothing else uses the storage (before the service
   * listens or starts its background work): anything else written meanwhile would be undone too.
   */
  async rehearse<T>(work: () => Promise<T>): Promise<T> {
    if (this.rehearsal || this.db.inTransaction) throw new Error('a rehearsal needs the storage to itself');
    const savepoint = this.db.prepare('SAVEPOINT rehearsed');
    const release = this.db.prepare('RELEASE rehearsed');
    const rollbackTo = this.db.prepare('ROLLBACK TO rehearsed');
    this.begin.run();
    this.rehearsal = {
      begin: () => savepoint.run(),
      commit: () => release.run(),
      rollback: () => {
        rollbackTo.run();
        release.run();
      },
    };
    try {
      return await work();
    } finally {
      this.rehearsal = undefined;
      if (this.db.inTransaction) this.rollback.run();
    }
  }

  schemaStatus(): Promise<SchemaStatus> {
    return this.lock.whenFree(() =>
      compareSchema(
        this.appliedSteps.all().map((row) => row.version),
        SERVICE_SCHEMA_MIGRATIONS,
      ),
    );
  }

  load(): StorageLoad {
    const inUse = this.lock.isHeld ? 1 : 0;
    return { inUse, idle: 1 - inUse, waiting: this.lock.waitingCount };
  }

  observeWaits(observe: (waitMs: number) => void): void {
    this.lock.onWait = observe;
  }

  refreshStatistics(): Promise<void> {
    return this.lock.whenFree(() => refreshStatistics(this.db));
  }

  /** Keeps the WAL short in the background, so that no commit of a request pays for a checkpoint. */
  startCheckpoints(logger?: Logger): void {
    this.checkpointer ??= startWalCheckpointer(this.db, logger ? { logger } : {});
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // Once every transaction and call queued before has run.
      await this.lock.holding(async () => {});
      await this.checkpointer?.stop();
      this.db.close();
    })();
    return this.closing;
  }

  private insideOnly<T>(call: () => T): Promise<T> {
    if (!this.lock.insideTransaction()) {
      return Promise.reject(
        new Error('the stores passed to storage.transaction(work) were used outside that work (after it ended)'),
      );
    }
    try {
      return Promise.resolve(call());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** Opens (creating when missing) the SQLite file and brings its service schema up to date. */
export function openSqliteStorage(options: SqliteStorageOptions): SqliteStorage {
  const db = openDb(options.path);
  // Pages read through memory instead of a read() each: about a fifth off a login check's queries on a large file.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  try {
    applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteStorage(db, options.logger, options.clock);
}
