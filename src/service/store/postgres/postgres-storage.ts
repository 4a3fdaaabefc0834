import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Logger } from '../../../ports/logger.js';
import { describeDatabaseUrl } from '../../db/dialect/postgres-driver.js';
import { createPgPool, observeConnectionWaits, PgDb } from '../../sharing/pg-db.js';
import { postgresUnavailable } from '../database-unavailable.js';
import type { SchemaStatus, StorageLoad } from '../ports/storage.js';
import { compareSchema } from '../schema-status.js';
import { applyPgSchemaMigrations, PG_SCHEMA_MIGRATIONS } from './schema.js';
import { createPgStores, instanceLeases, type PgStoreOptions, type PgStores } from './stores.js';

interface TransactionTicket {
  open: boolean;
  /** Run after the commit or rollback. */
  afterwards: Array<() => void>;
}

/** The service's storage on PostgreSQL: stores on a pool, transactions on one of its connections. */
export class PostgresStorage {
  readonly dialect = 'postgres' as const;
  readonly stores: PgStores;
  private readonly db: PgDb;
  // Set while a transaction's work runs, so a second transaction started from inside it is refused. A timer
  // armed inside the work (a webhook wake-up) keeps the ticket after the commit: `open` tells it is over.
  private readonly inside = new AsyncLocalStorage<TransactionTicket>();

  private readonly storeOptions: PgStoreOptions;

  constructor(
    readonly pool: pg.Pool,
    options: PgStoreOptions = {},
  ) {
    // As on SQLite: inside a transaction's work only its own stores may be used (another connection's
    // write could wait for a lock the transaction holds, and nothing would ever free it).
    this.db = new PgDb(pool, false, () => {
      if (this.inside.getStore()?.open) {
        throw new Error(
          'a store of storage.stores was called inside storage.transaction(work): inside the work use only the stores passed to it',
        );
      }
    });
    // One lease identity for the instance, in and out of transactions.
    this.storeOptions = { ...options, leases: options.leases ?? instanceLeases() };
    this.stores = createPgStores(this.db, this.storeOptions);
  }

  /**
   * Runs `work` in one transaction: the stores it is given share one connection, and everything
   * they wrote is committed together, or rolled back when `work` throws.
   */
  async transaction<T>(work: (stores: PgStores) => Promise<T>): Promise<T> {
    if (this.inside.getStore()?.open) {
      throw new Error(
        'storage.transaction was called inside the work of another transaction; transactions do not nest: use the stores passed to the outer work',
      );
    }
    const ticket: TransactionTicket = { open: true, afterwards: [] };
    try {
      return await this.db.transaction((tx) =>
        this.inside.run(ticket, () => work(createPgStores(tx, this.storeOptions))),
      );
    } finally {
      ticket.open = false;
      for (const callback of ticket.afterwards) callback();
    }
  }

  /**
   * Runs `callback` once the transaction this code runs in has ended (at once outside of one), outside
   * of it: work that must see what the transaction wrote, such as waking the webhook dispatcher.
   */
  whenTransactionEnds(callback: () => void): void {
    const ticket = this.inside.getStore();
    if (ticket?.open) ticket.afterwards.push(callback);
    else callback();
  }

  /** Brings the planner's statistics up to date (after bulk writes: seeds, imports). */
  async refreshStatistics(): Promise<void> {
    await this.pool.query('ANALYZE').catch((error: unknown) => {
      throw postgresUnavailable(error) ?? error;
    });
  }

  async schemaStatus(): Promise<SchemaStatus> {
    const applied = await this.pool.query<{ version: number }>('SELECT version FROM service_schema_migrations');
    return compareSchema(
      applied.rows.map((row) => row.version),
      PG_SCHEMA_MIGRATIONS,
    );
  }

  load(): StorageLoad {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { inUse: totalCount - idleCount, idle: idleCount, waiting: waitingCount };
  }

  observeWaits(observe: (waitMs: number) => void): void {
    observeConnectionWaits(this.pool, observe);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

export { describeDatabaseUrl };

export interface OpenPostgresOptions extends PgStoreOptions {
  /** @default 10 */
  maxConnections?: number;
  logger?: Logger;
}

/** Connects, brings the schema up to date and returns the storage; the error names the URL without its password. */
export async function openPostgresStorage(
  databaseUrl: string,
  options: OpenPostgresOptions = {},
): Promise<PostgresStorage> {
  const pool = createPgPool(databaseUrl, options);
  try {
    await applyPgSchemaMigrations(new PgDb(pool));
  } catch (error) {
    await pool.end().catch(() => {});
    const problem = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot open the PostgreSQL database ${describeDatabaseUrl(databaseUrl)}: ${problem}`, {
      cause: error,
    });
  }
  return new PostgresStorage(pool, options);
}
