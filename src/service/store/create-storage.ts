import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ServiceStorage } from './ports/storage.js';
import { openSqliteStorage } from './sqlite-storage.js';

export interface ServiceStorageOptions {
  /** The SQLite file (or `:memory:`). */
  dbPath: string;
  /** A `postgres://` URL: the data is kept there instead of `dbPath` (several instances may share it). */
  databaseUrl?: string;
  logger?: Logger;
  /** What a key's grace period is measured by. @default the system clock */
  clock?: Clock;
}

/** Opens the service's storage and brings its schema up to date. */
export async function createServiceStorage(options: ServiceStorageOptions): Promise<ServiceStorage> {
  if (options.databaseUrl !== undefined) {
    const { openPostgresStorage } = await import('./postgres/postgres-storage.js');
    return openPostgresStorage(options.databaseUrl, {
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }
  const storage = openSqliteStorage({
    path: options.dbPath,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // Every login check commits; a checkpoint inside one of those commits would be its p99.
  storage.startCheckpoints(options.logger);
  return storage;
}
