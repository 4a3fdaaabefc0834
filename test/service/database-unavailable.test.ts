import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '../../src/errors/create-error.js';
import { databaseUnavailableOf } from '../../src/service/http/database-outage.js';
import { serviceUnavailable } from '../../src/service/http/errors.js';
import { postgresUnavailable, sqliteUnavailable } from '../../src/service/store/database-unavailable.js';

const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('which database errors mean the database cannot be used now (503)', () => {
  it.each([
    ['connection refused', coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432')],
    ['connection reset', coded('ECONNRESET')],
    ['no route', coded('EHOSTUNREACH')],
    ['a name that does not resolve', coded('ENOTFOUND')],
    ['the server shutting down (57P01)', coded('57P01', 'terminating connection due to administrator command')],
    ['the server starting (57P03)', coded('57P03', 'the database system is starting up')],
    ['too many connections (53300)', coded('53300')],
    ['a connection exception (08006)', coded('08006')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['no connection within the timeout', new Error('timeout exceeded when trying to connect')],
  ])('PostgreSQL: %s', (_what, error) => {
    const unavailable = postgresUnavailable(error);
    expect(unavailable).toMatchObject({
      database: 'PostgreSQL',
      unavailable: 'cannot be reached',
      retryAfterSeconds: 5,
    });
    expect(hasErrorCode(unavailable, 'BAILIFF_SERVICE_DATABASE_UNAVAILABLE')).toBe(true);
    expect(unavailable!.cause).toBe(error);
  });

  it.each([
    ['a unique violation (23505)', coded('23505', 'duplicate key value')],
    ['a syntax error (42601)', coded('42601')],
    ['a bug', new TypeError('x is undefined')],
  ])('PostgreSQL: not %s', (_what, error) => {
    expect(postgresUnavailable(error)).toBeUndefined();
  });

  it.each([
    ['SQLITE_BUSY', 'is busy (another connection holds its lock)', 1],
    ['SQLITE_BUSY_SNAPSHOT', 'is busy (another connection holds its lock)', 1],
    ['SQLITE_LOCKED', 'is busy (another connection holds its lock)', 1],
    ['SQLITE_FULL', 'cannot be written: its disk is full', 30],
    ['SQLITE_IOERR_WRITE', 'cannot read or write its file', 30],
    ['SQLITE_READONLY', 'cannot be written: its file is read-only', 30],
  ])('SQLite: %s', (code, unavailable, retryAfterSeconds) => {
    expect(sqliteUnavailable(coded(code))).toMatchObject({ database: 'SQLite', unavailable, retryAfterSeconds });
  });

  it.each(['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_ERROR'])('SQLite: not %s', (code) => {
    expect(sqliteUnavailable(coded(code))).toBeUndefined();
  });

  it('is found through the causes a failure was wrapped in, and answered 503 without the driver’s words', () => {
    const unavailable = postgresUnavailable(coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'))!;
    expect(databaseUnavailableOf(new Error('import failed', { cause: unavailable }))).toBe(unavailable);
    expect(databaseUnavailableOf(new Error('other'))).toBeUndefined();
    const answer = serviceUnavailable(unavailable);
    expect(answer.statusCode).toBe(503);
    expect(answer.message).toBe('service unavailable: the PostgreSQL database cannot be reached; retry in 5 s');
    expect(answer.message).not.toContain('10.0.0.5');
    expect(answer.extra).toEqual({ retryAfterSeconds: 5 });
  });
});
