import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { KyselyStorage } from './kysely-storage.js';
import { openPostgresStorage, openSqliteStorage } from './open-storage.js';

export interface ServiceStorageOptions {
  /** The SQLite file (or `:memory:`). */
  dbPath: string;
  /** A `postgres://` URL: the data is kept there instead of `dbPath` (several instances may share it). */
  databaseUrl?: string;
  logger?: Logger;
  /** What a key's grace period is measured by. @default the system clock */
  clock?: Clock;
}

/** Opens the service's storage (the one store, on SQLite or PostgreSQL) and brings its schema up to date. */
export function createServiceStorage(options: ServiceStorageOptions): Promise<KyselyStorage> {
  const { logger } = options;
  const common = {
    ...(logger
      ? {
          logger,
          reportUnrenderableTicket: (ticketId: string, error: Error) =>
            logger.error('ticket row cannot be rendered; left out', { ticketId, problem: error.message }),
        }
      : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  };
  if (options.databaseUrl !== undefined) return openPostgresStorage(options.databaseUrl, common);
  // Every login check commits; a checkpoint inside one of those commits would be its p99.
  return openSqliteStorage(options.dbPath, { ...common, checkpointInBackground: true });
}
