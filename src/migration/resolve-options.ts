import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ModerationApi } from '../api/moderation-api.js';
import type { Outbox } from '../outbox/types.js';
import { type Clock, systemClock } from '../ports/clock.js';
import { randomId } from '../ports/ids.js';
import { type Logger, silentLogger } from '../ports/logger.js';
import { type Random, systemRandom } from '../ports/random.js';
import { systemTimers, type Timers } from '../ports/timers.js';
import { MigrationError } from './errors.js';
import {
  isDatabaseSource,
  MIGRATION_SOURCES,
  type MigrationOptions,
  type MigrationPlayer,
  type MigrationProgressEvent,
  type MigrationSourceKind,
} from './types.js';

export const MIGRATION_DEFAULTS = {
  maxUploadAttempts: 5,
  uploadTimeoutMs: 600_000,
  drainTimeoutMs: 30_000,
} as const;

export interface ResolvedMigrationOptions {
  from: MigrationSourceKind;
  dir: string;
  databaseUrl: string | undefined;
  tablePrefix: string | undefined;
  outFile: string;
  /** True when `outFile` was not given: the file in the OS temp folder is removed once uploaded. */
  removeFileAfterUpload: boolean;
  dryRun: boolean;
  /** Undefined only for a dry run. */
  client: ModerationApi | undefined;
  outbox: Outbox | undefined;
  emit: (event: MigrationProgressEvent) => void;
  /** `onPlayerExported`, guarded; does nothing in a dry run. */
  playerExported: (player: MigrationPlayer) => void;
  clock: Clock;
  timers: Timers;
  random: Random;
  runId: string;
  logger: Logger;
  maxUploadAttempts: number;
  uploadTimeoutMs: number;
  drainTimeoutMs: number;
}

function positiveInteger(option: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new MigrationError(
    'invalid_option',
    `option ${option}: expected a whole number > 0, received ${String(value)}`,
  );
}

/** Checks the options of `runMigration` and fills in defaults; errors name the option. */
export function resolveMigrationOptions(options: MigrationOptions): ResolvedMigrationOptions {
  if (!MIGRATION_SOURCES.includes(options.from)) {
    throw new MigrationError(
      'invalid_option',
      `option from: expected one of ${MIGRATION_SOURCES.join(', ')}, received ${String(options.from)}`,
    );
  }
  const fromDatabase = isDatabaseSource(options.from);
  if (fromDatabase && (typeof options.databaseUrl !== 'string' || options.databaseUrl.trim() === '')) {
    throw new MigrationError('invalid_option', `option databaseUrl: expected the ${options.from} database's URL`);
  }
  if (!fromDatabase && (typeof options.dir !== 'string' || options.dir.trim() === '')) {
    throw new MigrationError('invalid_option', 'option dir: expected the folder to read from');
  }
  const client = options.client;
  if (!options.dryRun && (typeof client !== 'object' || client === null)) {
    throw new MigrationError(
      'invalid_option',
      'option client: expected a moderation API client (only a dry run goes without)',
    );
  }
  const runId = (options.ids ?? randomId)();
  const logger = options.logger ?? silentLogger;
  const onProgress = options.onProgress;
  return {
    from: options.from,
    dir: fromDatabase ? '' : resolve(options.dir ?? '.'),
    databaseUrl: options.databaseUrl,
    tablePrefix: options.tablePrefix,
    outFile: resolve(options.outFile ?? join(tmpdir(), `bailiff-migration-${options.from}-${runId}.json`)),
    removeFileAfterUpload: options.outFile === undefined && !(options.dryRun ?? false),
    dryRun: options.dryRun ?? false,
    client,
    outbox: options.outbox,
    emit: (event) => {
      try {
        onProgress?.(event);
      } catch (error) {
        // A broken progress display must not break the migration.
        logger.warn('migration onProgress threw', { error: String(error) });
      }
    },
    playerExported: (player) => {
      if (options.dryRun || !options.onPlayerExported) return;
      try {
        options.onPlayerExported(player);
      } catch (error) {
        logger.warn('migration onPlayerExported threw', { error: String(error) });
      }
    },
    clock: options.clock ?? systemClock,
    timers: options.timers ?? systemTimers,
    random: options.random ?? systemRandom,
    runId,
    logger,
    maxUploadAttempts: positiveInteger(
      'maxUploadAttempts',
      options.maxUploadAttempts ?? MIGRATION_DEFAULTS.maxUploadAttempts,
    ),
    uploadTimeoutMs: positiveInteger('uploadTimeoutMs', options.uploadTimeoutMs ?? MIGRATION_DEFAULTS.uploadTimeoutMs),
    drainTimeoutMs: positiveInteger('drainTimeoutMs', options.drainTimeoutMs ?? MIGRATION_DEFAULTS.drainTimeoutMs),
  };
}
