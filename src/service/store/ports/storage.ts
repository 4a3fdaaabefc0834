import type { ServiceStoresPorts } from './stores.js';

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
  /** Waits for running work to finish and closes the database; nothing may be called afterwards. */
  close(): Promise<void>;
}
