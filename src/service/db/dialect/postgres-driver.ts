import { type Dialect, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Logger } from '../../../ports/logger.js';
import { postgresUnavailable } from '../../store/database-unavailable.js';
import { ConnectionWatch } from './connection-watch.js';

/** Distinct statement texts given a name (prepared once per connection); the stores have a few hundred. */
const MAX_NAMED = 2000;
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

/** A lost or unobtainable connection as a DatabaseUnavailableError (a 503), anything else as it is. */
export function rethrowUnavailable(error: unknown): never {
  throw postgresUnavailable(error) ?? error;
}

/**
 * The pool as Kysely sees it, with every statement text given a name, so each connection plans it
 * once and reuses the plan (what SQLite's prepared statements do).
 */
function namingPool(pool: pg.Pool, checkAcquire: () => void, watch: ConnectionWatch): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED) {
      name = `bailiff_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    release: (destroy?: boolean) => client.release(destroy),
    query: ((text: string, values: unknown[]) => {
      const name = nameOf(text);
      return client.query(name === undefined ? { text, values } : { name, text, values }).catch(rethrowUnavailable);
    }) as unknown as PostgresPoolClient['query'],
  });
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      checkAcquire();
      const askedAt = performance.now();
      const client = await pool.connect().catch(rethrowUnavailable);
      watch.waited(askedAt);
      let kyselyClient = wrapped.get(client);
      if (kyselyClient === undefined) {
        // A connection lost while lent out fails its statement (a 503); unheard, its error event would end the process.
        client.on('error', () => {});
        kyselyClient = wrap(client);
        wrapped.set(client, kyselyClient);
      }
      return kyselyClient;
    },
  };
}

/** Kysely over a pg pool. */
export function postgresKyselyDialect(
  pool: pg.Pool,
  checkAcquire: () => void = () => {},
  watch = new ConnectionWatch(),
): Dialect {
  watch.load = () => ({
    inUse: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
  });
  return new PostgresDialect({ pool: namingPool(pool, checkAcquire, watch) });
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
