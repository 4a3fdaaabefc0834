import type pg from 'pg';

/** A pool or one client: what a store runs its statements on. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

function isPool(queryable: Queryable): queryable is pg.Pool {
  return 'connect' in queryable && 'totalCount' in queryable;
}

/**
 * Runs `work` in a transaction: on a client of its own when given the pool, or on the given client,
 * which is already inside the caller's transaction (a store bound to `storage.transaction`).
 */
export async function atomically<T>(queryable: Queryable, work: (client: Queryable) => Promise<T>): Promise<T> {
  if (!isPool(queryable)) return work(queryable);
  const client = await queryable.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** BIGINT columns come back as strings (they may exceed 2^53); epoch ms and counts fit a number. */
export const toNumber = (value: string | number): number => Number(value);
export const toNumberOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));
