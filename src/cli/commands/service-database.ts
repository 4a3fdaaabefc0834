import { resolve } from 'node:path';
import type { ServiceStorage } from '../../service/store/ports/storage.js';
import type { CliContext } from '../command.js';
import { UsageError } from '../command.js';
import { ENV_DATABASE_URL } from './service-copy-to-postgres.js';

/** The flags of a command that works on the service's database directly (the service may be running). */
export const DATABASE_FLAGS = {
  db: { type: 'string' },
  'database-url': { type: 'string' },
} as const;

/** How those flags read in a command's usage. */
export const DATABASE_USAGE = `  --db PATH            the service's SQLite file (bailiff service --db)
  --database-url URL   its PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DB
                       (default: ${ENV_DATABASE_URL}, which keeps the password out of \`ps\`)`;

/** The database a command works on: a SQLite file or a PostgreSQL URL. */
export type ServiceDatabase = { dbPath: string } | { databaseUrl: string };

/**
 * The database the flags name, as `bailiff service` reads them: `--database-url`, else `--db`,
 * else `BAILIFF_DATABASE_URL`. Both flags, or none and no variable, is a usage error.
 */
export function databaseOf(
  flags: { db?: string | undefined; 'database-url'?: string | undefined },
  context: Pick<CliContext, 'env' | 'cwd'>,
  usage: string,
): ServiceDatabase {
  if (flags.db !== undefined && flags['database-url'] !== undefined) {
    throw new UsageError('--database-url: give it or --db (a SQLite file), not both');
  }
  if (flags.db !== undefined) return { dbPath: resolve(context.cwd, flags.db) };
  const databaseUrl = flags['database-url'] ?? context.env[ENV_DATABASE_URL];
  if (databaseUrl === undefined || databaseUrl.trim() === '') {
    throw new UsageError(`give --db PATH or --database-url URL (or set ${ENV_DATABASE_URL})\n${usage}`);
  }
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // The value is not echoed: it may hold a password.
    throw new UsageError('--database-url: must be a postgres:// or postgresql:// URL');
  }
  return { databaseUrl };
}

/** Opens the database (creating or upgrading its schema, as the service does), runs `work`, closes it. */
export async function withServiceStorage<T>(
  database: ServiceDatabase,
  work: (storage: ServiceStorage) => Promise<T>,
): Promise<T> {
  const { createServiceStorage } = await import('../../service/store/create-storage.js');
  const storage = await createServiceStorage(
    'databaseUrl' in database ? { dbPath: ':memory:', databaseUrl: database.databaseUrl } : database,
  );
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

/** Runs `work`; a refused change (unknown network, taken name...) becomes a usage error: exit code 2. */
export async function refusalsAsUsage<T>(work: () => Promise<T>): Promise<T> {
  const { ServerManagementError } = await import('../../service/servers/server-management-error.js');
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServerManagementError) throw new UsageError(error.message);
    throw error;
  }
}
