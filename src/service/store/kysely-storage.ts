import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery, Kysely } from 'kysely';
import type pg from 'pg';
import type { DialectChoices } from '../db/dialect/choices.js';
import { ConnectionWatch } from '../db/dialect/connection-watch.js';
import type { SqliteRehearsal, SqliteShortcut } from '../db/dialect/sqlite-driver.js';
import { schemaStatusOf } from '../db/migrate.js';
import type { SqlContext } from '../db/prepared.js';
import type { ServiceTables } from '../db/tables.js';
import type { SchemaStatus, ServiceStorage, StorageLoad } from './ports/storage.js';
import { createStores, type StoreOptions, type Stores } from './stores.js';
import { instanceLeases } from './webhook-deliveries.js';

interface TransactionTicket {
  open: boolean;
  /** Run after the commit or rollback. */
  afterwards: Array<() => void>;
}

/** Set to `1` (the test runs do) to check every store call for a transaction's misuse; see {@link TransactionScope}. */
export const CHECK_TRANSACTIONS_VARIABLE = 'BAILIFF_CHECK_TRANSACTIONS';

/**
 * Which transaction the running code is inside, shared by the storage and its database's driver, so
 * that a store of `storage.stores` called inside a transaction's work, or a transaction started
 * inside another, is refused with an error naming the misuse instead of waiting for ever (on SQLite
 * the transaction holds the one connection the call waits for).
 *
 * Only when checking (`BAILIFF_CHECK_TRANSACTIONS=1`, set for every test run): telling which
 * transaction a continuation belongs to takes an `AsyncLocalStorage`, whose promise hooks cost every
 * promise of the process, about a sixth of a login check's CPU time. A running service does without.
 */
export class TransactionScope {
  private readonly current: AsyncLocalStorage<TransactionTicket> | undefined;

  constructor(checking = process.env[CHECK_TRANSACTIONS_VARIABLE] === '1') {
    this.current = checking ? new AsyncLocalStorage<TransactionTicket>() : undefined;
  }

  /** Inside an open transaction's work (its continuations included); always false when not checking. */
  isInside(): boolean {
    return this.current?.getStore()?.open === true;
  }

  run<T>(ticket: TransactionTicket, work: () => Promise<T>): Promise<T> {
    return this.current ? this.current.run(ticket, work) : work();
  }

  /** For the driver: a statement of the database's own stores inside a transaction would wait for that transaction. */
  refuseInside(): void {
    if (this.isInside()) {
      throw new Error(
        'a store of storage.stores was called inside storage.transaction(work): inside the work use only the stores passed to it',
      );
    }
  }
}

/** A transaction's statements, refused with a clear message once its work has ended. */
function ticketed(
  trx: Kysely<ServiceTables>,
  choices: DialectChoices,
  ticket: TransactionTicket,
  shortcut: SqliteShortcut | undefined,
): SqlContext {
  const refuseEnded = () => {
    if (!ticket.open) {
      throw new Error('the stores of a transaction were used after it ended: use them only inside its work');
    }
  };
  return {
    choices,
    get db() {
      refuseEnded();
      return trx;
    },
    whenEnded: (callback) => {
      if (ticket.open) ticket.afterwards.push(callback);
      else callback();
    },
    ...(shortcut && {
      runNow: <R>(compiled: CompiledQuery) => {
        refuseEnded();
        return shortcut.whileHeld<R>(compiled);
      },
    }),
  };
}

/**
 * The service's storage on SQLite or PostgreSQL: one set of stores written once with Kysely, on
 * the database or, inside `transaction`, on one transaction's connection.
 */
export class KyselyStorage implements ServiceStorage {
  readonly dialect: 'sqlite' | 'postgres';
  readonly stores: Stores;
  private readonly options: StoreOptions;
  private closing: Promise<void> | undefined;

  constructor(
    readonly db: Kysely<ServiceTables>,
    readonly choices: DialectChoices,
    private readonly scope: TransactionScope,
    options: StoreOptions = {},
    /** Runs before the database closes (SQLite's checkpointer stops). */
    private readonly beforeClose: () => Promise<void> = async () => {},
    /** The driver's connections: how busy, how long waited. */
    private readonly watch = new ConnectionWatch(),
    /** PostgreSQL: the pool, for what several instances share beyond the stores (LISTEN/NOTIFY, rate buckets). */
    readonly pool?: pg.Pool,
    /** SQLite: the start-up warm-up's rolled-back transaction. */
    private readonly rehearsal?: SqliteRehearsal,
    /** SQLite: the prepared statements' short way to the one connection. */
    private readonly shortcut?: SqliteShortcut,
  ) {
    this.dialect = choices.name;
    // One lease identity for the instance, in and out of transactions.
    this.options = { ...options, leases: options.leases ?? instanceLeases() };
    this.stores = createStores(
      { db, choices, ...(shortcut && { runNow: (compiled) => shortcut.whenFree(compiled) }) },
      this.options,
    );
  }

  /** The stores on `sql` (tests and tools that hold their own transaction). */
  storesOn(sql: SqlContext): Stores {
    return createStores(sql, this.options);
  }

  async transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    if (this.scope.isInside()) {
      throw new Error(
        'storage.transaction was called inside the work of another transaction; transactions do not nest: use the stores passed to the outer work',
      );
    }
    const ticket: TransactionTicket = { open: true, afterwards: [] };
    try {
      return await this.db
        .transaction()
        .execute((trx) =>
          this.scope.run(ticket, () =>
            work(createStores(ticketed(trx, this.choices, ticket, this.shortcut), this.options)),
          ),
        );
    } finally {
      ticket.open = false;
      for (const callback of ticket.afterwards) callback();
    }
  }

  /** SQLite: whether a rehearsal ({@link rehearse}) can run. */
  canRehearse(): boolean {
    return this.rehearsal !== undefined;
  }

  /**
   * Runs `work` inside one transaction that is rolled back when it ends (SQLite only): the start-up
   * warm-up's rehearsal. Only while nothing else uses the storage (before the service listens or
   * starts its background work): anything else written meanwhile would be undone too.
   */
  rehearse<T>(work: () => Promise<T>): Promise<T> {
    if (!this.rehearsal) return Promise.reject(new Error('a rehearsal needs a SQLite file'));
    return this.rehearsal.run(this.db, work);
  }

  refreshStatistics(): Promise<void> {
    return this.choices.refreshStatistics(this.db);
  }

  schemaStatus(): Promise<SchemaStatus> {
    return schemaStatusOf(this.db, this.choices);
  }

  load(): StorageLoad {
    return this.watch.load();
  }

  observeWaits(observe: (waitMs: number) => void): void {
    this.watch.observeWaits(observe);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.beforeClose();
      await this.db.destroy();
    })();
    return this.closing;
  }
}
