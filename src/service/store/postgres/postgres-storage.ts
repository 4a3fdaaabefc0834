import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Logger } from '../../../ports/logger.js';
import { createPgPool, PgDb } from './pool.js';
import { applyPgSchemaMigrations } from './schema.js';
import { createPgStores, type PgStores } from './stores.js';

interface TransactionTicket {
  /** The work is running: only the stores given to it may be used. */
  working: boolean;
  /** Resolves once the transaction committed or rolled back. */
  ended: Promise<void>;
}

/** The service's storage on PostgreSQL: stores on a pool, transactions on one of its connections. */
export class PostgresStorage {
  readonly dialect = 'postgres' as const;
  readonly stores: PgStores;
  private readonly db: PgDb;
  // The transaction whose work is running: a second transaction started from inside it is refused.
  // Work the transaction started that outlives it (a timer, a woken dispatcher) keeps the ticket,
  // so the ticket says whether the work is still running, and when the transaction has ended.
  private readonly current = new AsyncLocalStorage<TransactionTicket>();

  constructor(readonly pool: pg.Pool) {
    // As on SQLite: inside a transaction's work only its own stores may be used (another connection's
    // write could wait for a lock the transaction holds, and nothing would ever free it).
    this.db = new PgDb(pool, false, () => {
      const ticket = this.current.getStore();
      if (ticket?.working) {
        throw new Error(
          'a store of storage.stores was called inside storage.transaction(work): inside the work use only the stores passed to it',
        );
      }
      // Started by the work, run after it: it waits for the commit, and so sees what the work wrote.
      return ticket?.ended;
    });
    this.stores = createPgStores(this.db);
  }

  /**
   * Runs `work` in one transaction: the stores it is given share one connection, and everything
   * they wrote is committed together, or rolled back when `work` throws.
   */
  async transaction<T>(work: (stores: PgStores) => Promise<T>): Promise<T> {
    if (this.current.getStore()?.working) {
      throw new Error(
        'storage.transaction was called inside the work of another transaction; transactions do not nest: use the stores passed to the outer work',
      );
    }
    let end: () => void = () => {};
    const ticket: TransactionTicket = { working: true, ended: new Promise((resolve) => (end = resolve)) };
    try {
      return await this.db.transaction((tx) =>
        this.current.run(ticket, async () => {
          try {
            return await work(createPgStores(tx));
          } finally {
            ticket.working = false;
          }
        }),
      );
    } finally {
      end();
    }
  }

  /** Brings the planner's statistics up to date (after bulk writes: seeds, imports). */
  async refreshStatistics(): Promise<void> {
    await this.pool.query('ANALYZE');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** A `postgres://` URL with its password hidden, for messages. */
export function describeDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(a malformed database URL)';
  }
}

export interface OpenPostgresOptions {
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
  return new PostgresStorage(pool);
}
