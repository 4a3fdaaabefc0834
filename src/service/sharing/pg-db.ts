import pg from 'pg';
import { rethrowUnavailable } from '../db/dialect/postgres-driver.js';

/** What a statement can run on: the pool (one statement, any connection) or one checked-out client. */
export type Queryable = pg.Pool | pg.PoolClient;

/** A statement with a name, so each connection prepares it once and reuses the plan. */
export interface PgStatement {
  name: string;
  text: string;
}

/** Names each statement `<owner>.<key>`, so a statement in `pg_stat_statements` or an error names where it came from. */
export function pgStatements<Keys extends string>(
  store: string,
  texts: Record<Keys, string>,
): Record<Keys, PgStatement> {
  const statements = {} as Record<Keys, PgStatement>;
  for (const key of Object.keys(texts) as Keys[]) statements[key] = { name: `${store}.${key}`, text: texts[key] };
  return statements;
}

/**
 * One database as the PostgreSQL-only parts (sharing between instances, the copy) see it: the pool,
 * or a client inside a transaction, so the same code serves single statements and transactions.
 */
export class PgDb {
  private ended = false;

  constructor(
    readonly target: Queryable,
    /** True when `target` is a client whose transaction is open: `transaction` then joins it. */
    readonly inTransaction = false,
  ) {}

  private query<Row extends pg.QueryResultRow>(statement: PgStatement, values: readonly unknown[]) {
    // A transaction's client goes back to the pool when it ends: a late statement could land in someone else's.
    if (this.ended) {
      return Promise.reject(
        new Error('the stores of a transaction were used after it ended: use them only inside its work'),
      );
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
