import type { ModerationApi } from '../api/moderation-api.js';
import type { MigrationStatus, MigrationUploadResponse } from '../contract/schemas.js';
import type { Outbox } from '../outbox/types.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { Random } from '../ports/random.js';
import type { Timers } from '../ports/timers.js';

/** Where the punishments come from. */
/** `json`: a migration file, such as `bailiff migrate --to json` writes (`--file`). */
export type FileSourceKind = 'vanilla' | 'essentials' | 'json';
/** Plugins whose MySQL/MariaDB or PostgreSQL tables are read (`--database-url`). */
export type DatabaseSourceKind = 'litebans' | 'libertybans' | 'advancedban' | 'banmanager';
export type MigrationSourceKind = FileSourceKind | DatabaseSourceKind;

export const DATABASE_SOURCES: readonly DatabaseSourceKind[] = ['litebans', 'libertybans', 'advancedban', 'banmanager'];
export const MIGRATION_SOURCES: readonly MigrationSourceKind[] = ['vanilla', 'essentials', 'json', ...DATABASE_SOURCES];
/** What `/bailiff migrate` in game reads: a folder of the server (the other sources take a URL or a file). */
export type ServerFolderSourceKind = 'vanilla' | 'essentials';
export const SERVER_FOLDER_SOURCES: readonly ServerFolderSourceKind[] = ['vanilla', 'essentials'];

export function isDatabaseSource(kind: MigrationSourceKind): kind is DatabaseSourceKind {
  return (DATABASE_SOURCES as readonly string[]).includes(kind);
}

/** Who lifted a punishment before its end, when and why (an extension of the file format). */
export interface MigrationPardon {
  issuerName: string;
  reason: string;
  /** ISO 8601. */
  date: string;
}

/** One punishment of the migration file format (docs/contract/service-semantics.md, Migration). */
export interface MigrationPunishment {
  id: string;
  typeOrdinal: number;
  reason: string;
  /** ISO 8601. */
  issued: string;
  issuerName: string;
  /** Milliseconds; -1 is permanent. */
  duration: number;
  active: boolean;
  /** Extension: `warning` for a warning (a Kick-type record, as `/warn` makes); absent otherwise. */
  status?: 'warning';
  /** Extension: the punishment's `data`, e.g. `{ipAddress}` for an IP ban. */
  data?: Record<string, unknown>;
  /** Extension: the pardon of a punishment lifted before its end. */
  pardon?: MigrationPardon;
}

/** One player of the migration file format, with their punishments. */
export interface MigrationPlayer {
  minecraftUuid: string;
  usernames: { username: string; date: string }[];
  punishments: MigrationPunishment[];
}

/** What a source yields per entry it reads: a player to write, or an entry it could not use. */
export type SourceItem =
  | { kind: 'player'; player: MigrationPlayer }
  | { kind: 'skipped'; reason: string; where: string }
  /** A readable entry with nothing to migrate (an Essentials user without ban or mute). */
  | { kind: 'empty' };

/** A source opened for reading: `total` entries are announced before the first is read. */
export interface MigrationSource {
  /** Source entries `items` will yield (players, IP bans, userdata files). */
  total: number;
  items(): AsyncIterable<SourceItem>;
}

/** Progress seen by the CLI bars and the in-game chat. */
export type MigrationProgressEvent =
  | { phase: 'building_json'; processed: number; total: number }
  | { phase: 'uploading_json'; fileSize: number; attempt: number }
  | { phase: 'retrying_upload'; attempt: number; delayMs: number; reason: string }
  | { phase: 'completed'; summary: MigrationSummary }
  | { phase: 'failed'; message: string };

export interface SkippedEntries {
  reason: string;
  count: number;
  /** Up to three places (file and entry) where it happened. */
  examples: string[];
}

export interface MigrationSummary {
  /** Player objects written to the file. */
  players: number;
  /** Punishments written to the file. */
  punishments: number;
  /** Source entries read (players, IP bans, userdata files). */
  entriesRead: number;
  skipped: SkippedEntries[];
  /** Punishments written, by kind (`bans`, `ip bans`, `mutes`, `warnings`, `kicks`, `pardoned`). */
  byKind?: Record<string, number>;
  /** Bytes of the written migration file. */
  fileSize: number;
  filePath: string;
  /** True when the file was a temporary one (no `outFile` given) and was removed after its upload. */
  fileRemoved?: boolean;
  /** The upload's 200 answer; absent for a dry run. */
  serviceAnswer?: MigrationUploadResponse;
  dryRun: boolean;
}

export interface MigrationOptions {
  from: MigrationSourceKind;
  /**
   * Folder holding the source: for `vanilla` the server folder with `banned-players.json`
   * (and optionally `banned-ips.json`); for `essentials` the `userdata` folder, or a folder
   * containing `userdata/` (such as `plugins/Essentials`). Not used by the database sources.
   */
  dir?: string;
  /** `mysql://` or `postgres://` URL of the plugin's database; required for the database sources. */
  databaseUrl?: string;
  /** Prefix of the plugin's table names. @default the plugin's own (`litebans_`, `libertybans_`, none, `bm_`) */
  tablePrefix?: string;
  /**
   * Where the migration file is written, and kept. @default `<os tmpdir>/bailiff-migration-<from>-<run id>.json`,
   * removed once uploaded (a dry run keeps it)
   */
  outFile?: string;
  /** Write the file and stop: no upload, no progress calls. @default false */
  dryRun?: boolean;
  /**
   * Uploads the file; progress goes through `outbox` when given, else straight to this client.
   * Required unless `dryRun`.
   */
  client?: ModerationApi;
  /** Progress calls are enqueued here, one ordering key per run, and drained before the end. */
  outbox?: Outbox;
  /** Called for every progress step (bars, chat). Exceptions thrown here are ignored. */
  onProgress?: (event: MigrationProgressEvent) => void;
  /**
   * Called for each player written to the file, except in a dry run: the plugin seeds its cache
   * with the player's active bans and mutes. Exceptions thrown here are logged and ignored.
   */
  onPlayerExported?: (player: MigrationPlayer) => void;
  /** Decides which entries have expired. @default systemClock */
  clock?: Clock;
  /** Upload backoff and the outbox wait. @default systemTimers */
  timers?: Timers;
  /** Backoff jitter. @default Math.random */
  random?: Random;
  /** Names the run (ordering and idempotency keys, default file name). @default randomUUID */
  ids?: IdGenerator;
  /** @default silentLogger */
  logger?: Logger;
  /** Upload attempts before giving up on 429, 5xx or network failures. @default 5 */
  maxUploadAttempts?: number;
  /** Time limit of one upload attempt. @default 600000 (10 min) */
  uploadTimeoutMs?: number;
  /** How long to wait for the outbox to deliver the progress calls at the end. @default 30000 */
  drainTimeoutMs?: number;
}

export type { MigrationStatus };
