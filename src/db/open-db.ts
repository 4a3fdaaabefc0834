import { closeSync, existsSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createError } from '../errors/create-error.js';
import { errorMessage } from '../errors/error-message.js';

export type Db = Database.Database;

/** Raised when a database file cannot be opened or is not a SQLite database. */
export class DatabaseOpenError extends createError('BAILIFF_DB_OPEN', 'DatabaseOpenError') {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    const detail = errorMessage(cause);
    super(`cannot open database ${path}: ${detail}`, { cause });
  }
}

export interface OpenDbOptions {
  /** Open without write access (inspection commands). @default false */
  readonly?: boolean;
  /** How long a writer waits for a lock held by another connection. @default 5000 */
  busyTimeoutMs?: number;
}

/**
 * The size SQLite cuts the WAL file back to once it has been copied into the database: without a
 * limit the file keeps the size of the largest burst of writes it ever held (the first fill of a
 * cache: 14 MB for 1,000 bans) for as long as the database is open.
 */
export const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

/** Only the owner may read a new database: it holds players' addresses (or keys' hashes). */
const NEW_DATABASE_MODE = 0o600;

/**
 * Opens a SQLite file (or `:memory:`) with the pragmas every Bailiff database uses. A new file is
 * created 0600; SQLite gives its -wal and -shm files the same mode.
 */
export function openDb(path: string, options: OpenDbOptions = {}): Db {
  let db: Db | undefined;
  try {
    if (!options.readonly && path !== ':memory:' && path !== '' && !existsSync(path)) {
      closeSync(openSync(path, 'a', NEW_DATABASE_MODE));
    }
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    }
    db.pragma('foreign_keys = ON');
    // A corrupt or foreign file only fails on first read: check now so the error names the file.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db?.close();
    throw new DatabaseOpenError(path, error);
  }
}
