import type { Statement } from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type LimitNode,
  type OffsetNode,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import type { Db } from '../../../db/open-db.js';
import { sqliteUnavailable } from '../../store/database-unavailable.js';
import type { RunNow } from '../prepared.js';
import { ConnectionWatch } from './connection-watch.js';

/** Distinct statement texts kept prepared; the stores have a few hundred, so this only bounds a runaway. */
const MAX_PREPARED = 2000;

type SqliteValue = string | number | bigint | Buffer | null;

/** Busy past the busy timeout, out of disk, failing to read or write: a DatabaseUnavailableError (a 503). */
const unavailableOr = (error: unknown): unknown => sqliteUnavailable(error) ?? error;

// better-sqlite3 binds no booleans (a boolean column is 0 or 1) and no lists (a list is JSON text, read with json_each).
function bindable(value: unknown): SqliteValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return JSON.stringify(value);
  return value as SqliteValue;
}

/** The one connection of a SQLite file; each statement text is prepared once and reused. */
class SqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Db) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.run<R>(compiled));
    } catch (error) {
      return Promise.reject(unavailableOr(error));
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    for (const row of this.statement(compiled.sql).iterate(compiled.parameters.map(bindable))) {
      yield { rows: [row as R] };
    }
  }

  /** Runs the statement now; a database error thrown as the executor would reject with it. */
  runNow<R>(compiled: CompiledQuery): QueryResult<R> {
    try {
      return this.run<R>(compiled);
    } catch (error) {
      throw unavailableOr(error);
    }
  }

  private run<R>(compiled: CompiledQuery): QueryResult<R> {
    const statement = this.statement(compiled.sql);
    const parameters = compiled.parameters.map(bindable);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  /** Runs a statement without parameters (BEGIN, COMMIT), prepared once like any other. */
  runText(sql: string): void {
    try {
      this.statement(sql).run();
    } catch (error) {
      throw unavailableOr(error);
    }
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= MAX_PREPARED) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * One connection, lent to one user at a time: a transaction holds it from BEGIN IMMEDIATE to COMMIT,
 * and a statement outside it waits its turn, so nothing interleaves with a transaction's awaits.
 */
class SqliteDriver implements Driver {
  private readonly connection: SqliteConnection;
  private held = false;
  private readonly waiting: Array<() => void> = [];

  constructor(
    db: Db,
    /** Throws to refuse a statement that would wait for itself (the root stores used inside a transaction). */
    private readonly checkAcquire: () => void,
    private readonly watch: ConnectionWatch,
    private readonly rehearsal: SqliteRehearsal,
    shortcut: SqliteShortcut,
  ) {
    this.connection = new SqliteConnection(db);
    rehearsal.busy = () => this.held || this.connection.db.inTransaction;
    // What acquireConnection, executeQuery and releaseConnection would do, without their promises.
    shortcut.whenFree = <R>(compiled: CompiledQuery) => {
      if (this.held) return undefined;
      this.checkAcquire();
      this.watch.waited(performance.now());
      return this.connection.runNow<R>(compiled);
    };
    shortcut.whileHeld = <R>(compiled: CompiledQuery) => this.connection.runNow<R>(compiled);
    // A lone statement holds the connection for no longer than it runs: only a transaction counts as using it.
    watch.load = () => {
      const inUse = this.connection.db.inTransaction ? 1 : 0;
      return { inUse, idle: 1 - inUse, waiting: this.waiting.length };
    };
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    try {
      this.checkAcquire();
    } catch (error) {
      return Promise.reject(error);
    }
    const askedAt = performance.now();
    if (!this.held) {
      this.held = true;
      this.watch.waited(askedAt);
      return Promise.resolve(this.connection);
    }
    return new Promise((lend) =>
      this.waiting.push(() => {
        this.watch.waited(askedAt);
        lend(this.connection);
      }),
    );
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  async beginTransaction(): Promise<void> {
    this.connection.runText(this.rehearsal.active ? 'SAVEPOINT rehearsed' : 'BEGIN IMMEDIATE');
  }

  async commitTransaction(): Promise<void> {
    if (this.rehearsal.active) return this.connection.runText('RELEASE rehearsed');
    try {
      this.connection.runText('COMMIT');
    } catch (error) {
      // SQLITE_BUSY leaves the transaction open: roll back so nothing stays half done.
      if (this.connection.db.inTransaction) this.connection.runText('ROLLBACK');
      throw error;
    }
  }

  async rollbackTransaction(): Promise<void> {
    if (this.rehearsal.active) {
      this.connection.runText('ROLLBACK TO rehearsed');
      return this.connection.runText('RELEASE rehearsed');
    }
    if (this.connection.db.inTransaction) this.connection.runText('ROLLBACK');
  }

  /** Closes once every statement and transaction queued before has run. */
  async destroy(): Promise<void> {
    if (this.held) await new Promise<void>((free) => this.waiting.push(free));
    this.connection.db.close();
  }
}

/**
 * The driver's short ways to its connection for {@link Prepared} statements (set by the driver once
 * Kysely creates it): `whenFree` for the database's own stores, run only while no transaction holds
 * the connection; `whileHeld` for the stores of the transaction that holds it.
 */
export class SqliteShortcut {
  whenFree: RunNow = () => undefined;
  whileHeld: RunNow = () => undefined;
}

/**
 * The start-up warm-up's rehearsal: everything written meanwhile, through the stores or their
 * transactions (savepoints meanwhile), is rolled back when it ends, so not a row is left behind.
 */
export class SqliteRehearsal {
  active = false;
  /** Set by the driver: whether its connection is lent out or inside a transaction. */
  busy: () => boolean = () => false;

  /** Only while nothing else uses the database: anything else written meanwhile would be undone too. */
  async run<T, D>(db: Kysely<D>, work: () => Promise<T>): Promise<T> {
    if (this.active || this.busy()) throw new Error('a rehearsal needs the storage to itself');
    await sql`BEGIN IMMEDIATE`.execute(db);
    this.active = true;
    try {
      return await work();
    } finally {
      this.active = false;
      await sql`ROLLBACK`.execute(db);
    }
  }
}

class ServiceSqliteAdapter extends SqliteAdapter {
  // SQLite runs DDL inside a transaction: a failed migration leaves nothing half applied.
  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  // The driver lends its one connection itself, after refusing a statement that would wait for its own transaction.
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * SQLite's compiler with LIMIT and OFFSET values cast to integers: a bare `LIMIT ?` makes each run
 * of the statement cost about 20 us more (measured on the login check's address query, 27 against
 * 7 us), a cast one costs nothing more.
 */
class ServiceSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    this.append('limit cast(');
    this.visitNode(node.limit);
    this.append(' as integer)');
  }

  protected override visitOffset(node: OffsetNode): void {
    this.append('offset cast(');
    this.visitNode(node.offset);
    this.append(' as integer)');
  }
}

/** Kysely over one better-sqlite3 database. */
export function sqliteKyselyDialect(
  db: Db,
  checkAcquire: () => void = () => {},
  watch = new ConnectionWatch(),
  rehearsal = new SqliteRehearsal(),
  shortcut = new SqliteShortcut(),
): Dialect {
  return {
    createDriver: () => new SqliteDriver(db, checkAcquire, watch, rehearsal, shortcut),
    createQueryCompiler: () => new ServiceSqliteQueryCompiler(),
    createAdapter: () => new ServiceSqliteAdapter(),
    createIntrospector: (kysely: Kysely<unknown>) => new SqliteIntrospector(kysely),
  };
}
