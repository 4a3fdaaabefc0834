import { createError } from '../../errors/create-error.js';

export type DatabaseName = 'PostgreSQL' | 'SQLite';

/**
 * The service cannot use its database right now (it is down, unreachable, busy or out of disk):
 * every route answers 503 with `Retry-After` instead of a 500. `unavailable` is what clients are
 * told (no address, no file name); the message, for logs, adds the driver's own words.
 */
export class DatabaseUnavailableError extends createError(
  'BAILIFF_SERVICE_DATABASE_UNAVAILABLE',
  'DatabaseUnavailableError',
) {
  constructor(
    readonly database: DatabaseName,
    /** What is wrong, after "the <database> database": `cannot be reached`, `is busy`... */
    readonly unavailable: string,
    readonly retryAfterSeconds: number,
    cause: unknown,
  ) {
    super(`the ${database} database ${unavailable} (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
    });
  }
}

/** How long a client is told to wait while PostgreSQL cannot be reached. */
export const POSTGRES_RETRY_AFTER_SECONDS = 5;
/** How long a client is told to wait while SQLite is busy (its lock is held past the busy timeout). */
export const SQLITE_BUSY_RETRY_AFTER_SECONDS = 1;
/** How long a client is told to wait while SQLite cannot read or write its file (an operator must act). */
export const SQLITE_FAILING_RETRY_AFTER_SECONDS = 30;

// A connection that could not be opened or was lost (node's network errors).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
  'EADDRNOTAVAIL',
]);
// SQLSTATEs of a server going away or refusing connections: admin_shutdown, crash_shutdown,
// cannot_connect_now (starting or stopping), too_many_connections. Class 08 is every connection exception.
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
// node-postgres' and pg-pool's own words for a lost or unobtainable connection.
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/** A PostgreSQL error that means the database cannot be used now, as a {@link DatabaseUnavailableError}; else undefined. */
export function postgresUnavailable(error: unknown): DatabaseUnavailableError | undefined {
  if (error instanceof DatabaseUnavailableError) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const isUnavailable =
    (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08/.test(code))) ||
    (typeof message === 'string' && LOST_CONNECTION.test(message));
  return isUnavailable
    ? new DatabaseUnavailableError('PostgreSQL', 'cannot be reached', POSTGRES_RETRY_AFTER_SECONDS, error)
    : undefined;
}

/** What SQLite's codes that are no fault of the request mean for a client, and how long it should wait. */
const SQLITE_UNAVAILABLE: Array<[RegExp, string, number]> = [
  [/^SQLITE_(BUSY|LOCKED)/, 'is busy (another connection holds its lock)', SQLITE_BUSY_RETRY_AFTER_SECONDS],
  [/^SQLITE_FULL$/, 'cannot be written: its disk is full', SQLITE_FAILING_RETRY_AFTER_SECONDS],
  [/^SQLITE_(IOERR|CANTOPEN)/, 'cannot read or write its file', SQLITE_FAILING_RETRY_AFTER_SECONDS],
  [/^SQLITE_READONLY/, 'cannot be written: its file is read-only', SQLITE_FAILING_RETRY_AFTER_SECONDS],
];

/** A SQLite error that means the database cannot be used now, as a {@link DatabaseUnavailableError}; else undefined. */
export function sqliteUnavailable(error: unknown): DatabaseUnavailableError | undefined {
  if (error instanceof DatabaseUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const match = SQLITE_UNAVAILABLE.find(([pattern]) => pattern.test(code));
  return match === undefined ? undefined : new DatabaseUnavailableError('SQLite', match[1], match[2], error);
}
