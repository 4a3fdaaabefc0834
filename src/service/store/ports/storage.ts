import type { ServiceStoresPorts } from './stores.js';

/**
 * The database's schema against the steps this Bailiff knows: `behind` when some were never applied
 * (a database restored from an older copy), `ahead` when a newer Bailiff applied steps this one does not know.
 */
export type SchemaStatus = 'current' | 'behind' | 'ahead';

/**
 * How busy the database is, for the metrics. PostgreSQL: the pool's connections in use, idle, and
 * the statements waiting for one. SQLite: its one connection, in use while a transaction holds it,
 * and the calls waiting for that transaction to end.
 */
export interface StorageLoad {
  inUse: number;
  idle: number;
  waiting: number;
}

/**
 * The service's database behind one asynchronous interface: SQLite (the embedded default) or
 * PostgreSQL. Store calls made on `stores` outside a transaction each stand alone (and wait while
 * a transaction runs); a transaction's work uses only the stores it is given.
 */
export interface ServiceStorage {
  readonly dialect: 'sqlite' | 'postgres';
  readonly stores: ServiceStoresPorts;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back (and the error
   * rethrown) when it rejects. Only the `stores` passed in may be used inside; calling
   * `transaction` again from inside `work` rejects with an error naming the misuse.
   */
  transaction<T>(work: (stores: ServiceStoresPorts) => Promise<T>): Promise<T>;
  /** Brings the query planner's statistics up to date after bulk writes (seeds, imports); cheap when nothing changed. */
  refreshStatistics(): Promise<void>;
  /** Reads the applied schema steps (a round trip to the database: it throws when the database cannot be reached). */
  schemaStatus(): Promise<SchemaStatus>;
  /** How busy the database is now. */
  load(): StorageLoad;
  /**
   * From now on, tells `observe` how long each database call waited before it ran, in ms: for a
   * pooled connection (PostgreSQL), for the transaction that holds the database (SQLite).
   */
  observeWaits(observe: (waitMs: number) => void): void;
  /** Waits for running work to finish and closes the database; nothing may be called afterwards. */
  close(): Promise<void>;
}
