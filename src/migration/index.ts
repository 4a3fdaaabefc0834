export { activePunishmentsOf } from './as-punishments.js';
export { describeProgressEvent, formatBytes } from './describe-progress.js';
export { isMigrationError, MIGRATION_ERROR_CODES, MigrationError, type MigrationErrorKind } from './errors.js';
export { explainUploadError } from './explain.js';
export { MIGRATION_DEFAULTS } from './resolve-options.js';
export { runMigration } from './run-migration.js';
export { sourceDirFor } from './source-dir.js';
export { BANNED_IPS_FILE, BANNED_PLAYERS_FILE, IP_BAN_SKIP_REASON } from './sources/vanilla.js';
export * from './types.js';
