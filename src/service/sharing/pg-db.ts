import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Logger } from '../../ports/logger.js';
import { postgresUnavailable } from '../store/database-unavailable.js';

/** What a statement can run on: the pool (one statement, any connection) or one checked-out client. */
export type Queryable = pg.Pool | pg.PoolClient;

/** A statement with a name, so each connection prepares it once and reuses the plan. */
export interface PgStatement {
  name: string;
  text: string;
}

/**
 * Names each statement of a store `<store>.<key>`, as the SQLite stores' `*_SQL` objects are keyed,
 * so a statement in `pg_stat_statements` or an error names where it came from.
 */
export function pgStatements<Keys extends string>(
  store: string,
  texts: Record<Keys, string>,
): Record<Keys, PgStatement> {
  const statements = {} as Record<Keys, PgStatement>;
  for (const key of Object.keys(texts) as Keys[]) statements[key] = { name: `${store}.${key}`, text: texts[key] };
  return statements;
}

/** Throws a lost or unobtainable connection as a DatabaseUnavailableError (a 503), anything else as it is. */
function rethrowUnavailable(error: unknown): never {
  throw postgresUnavailable(error) ?? error;
}

const INT8_OID = 20;

/**
 * BIGINT columns (epoch ms, durations, sequences, counts) as numbers instead of pg's default
 * strings. Every value the service stores is within Number's safe range; one that is not is an
 * error rather than a silently rounded number.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} is outside the range of a safe integer`);
  return value;
}

const serviceTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return parseInt8;
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/** How long opening a connection (or waiting for a free one) may take before the request is answered 503. */
export const PG_CONNECT_TIMEOUT_MS = 10_000;

export interface PgPoolOptions {
  /** Connections the pool opens at most. @default 10 */
  maxConnections?: number;
  /** How long opening a connection, or waiting for a free one, may take. @default PG_CONNECT_TIMEOUT_MS */
  connectTimeoutMs?: number;
  /** Told about an idle connection that failed (the server restarted, the network dropped). */
  logger?: Logger;
}

/** A pool for a `postgres://` URL whose BIGINT columns come back as numbers. */
export function createPgPool(databaseUrl: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    // Without it, a database whose network drops packets holds every request for minutes.
    connectionTimeoutMillis: options.connectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS,
    types: serviceTypes,
  });
  // Without a listener an idle client's error would end the process; the pool replaces the client.
  pool.on('error', (error) => options.logger?.warn('idle PostgreSQL connection failed', { problem: error.message }));
  return pool;
}

/**
 * Tells `observe` how long each statement (and each transaction) waited for a connection of the
 * pool, in ms: the pool's own `query` takes its connection through `connect`, which this wraps.
 */
export function observeConnectionWaits(pool: pg.Pool, observe: (waitMs: number) => void): void {
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ) => Promise<pg.PoolClient> | undefined;
  const measured = (
    callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ) => {
    const askedAt = performance.now();
    if (callback) {
      return connect((error, client, done) => {
        observe(performance.now() - askedAt);
        callback(error, client, done);
      });
    }
    return connect()!.then((client) => {
      observe(performance.now() - askedAt);
      return client;
    });
  };
  pool.connect = measured as typeof pool.connect;
}

/**
 * One database as the stores see it: the pool, or a client inside a transaction. Stores take a
 * `PgDb` and never know which, so the same store serves single statements and transactions.
 */
export class PgDb {
  private ended = false;

  constructor(
    readonly target: Queryable,
    /** True when `target` is a client whose transaction is open: `transaction` then joins it. */
    readonly inTransaction = false,
    /** Called before every statement; throws to refuse it (PostgresStorage: pool stores used inside a transaction). */
    private readonly checkUse: () => void = () => {},
  ) {}

  private query<Row extends pg.QueryResultRow>(statement: PgStatement, values: readonly unknown[]) {
    // A transaction's client goes back to the pool when it ends: a late statement could land in someone else's.
    if (this.ended) {
      return Promise.reject(
        new Error('the stores of a transaction were used after it ended: use them only inside its work'),
      );
    }
    try {
      this.checkUse();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.target.query<Row>({ ...statement, values: [...values] }).catch(rethrowUnavailable);
  }

  async rows<Row>(statement: PgStatement, values: readonly unknown[] = []): Promise<Row[]> {
    return (await this.query<Row & pg.QueryResultRow>(statement, values)).rows;
  }

  async row<Row>(statement: PgStatement, values: readonly unknown[] = []): Promise<Row | undefined> {
    return (await this.rows<Row>(statement, values))[0];
  }

  /** Runs a write; returns how many rows it changed. */
  async run(statement: PgStatement, values: readonly unknown[] = []): Promise<number> {
    return (await this.query(statement, values)).rowCount ?? 0;
  }

  /**
   * Runs `work` in a transaction on one connection: its own when called on the pool, the open one
   * when called inside a transaction (nothing commits until the outer transaction does).
   */
  async transaction<T>(work: (db: PgDb) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    try {
      return await this.transactionOnce(work);
    } catch (error) {
      return rethrowUnavailable(error);
    }
  }

  private async transactionOnce<T>(work: (db: PgDb) => Promise<T>): Promise<T> {
    const client = this.target instanceof pg.Pool ? await this.target.connect() : this.target;
    const owned = client !== this.target;
    let rollbackProblem: Error | undefined;
    try {
      await client.query('BEGIN');
      const inside = new PgDb(client, true);
      try {
        const result = await work(inside);
        inside.ended = true;
        await client.query('COMMIT');
        return result;
      } catch (error) {
        inside.ended = true;
        await client.query('ROLLBACK').catch((problem: Error) => {
          rollbackProblem = problem;
        });
        throw error;
      }
    } finally {
      // A connection whose rollback failed is in an unknown state: the pool closes it instead of reusing it.
      if (owned) (client as pg.PoolClient).release(rollbackProblem);
    }
  }
}
