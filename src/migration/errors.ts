import type { ErrorCodeOf } from '../errors/registry.js';

/** Why a migration stopped. */
export type MigrationErrorKind = 'invalid_option' | 'source' | 'write' | 'upload';

export const MIGRATION_ERROR_CODES = {
  invalid_option: 'BAILIFF_MIGRATION_INVALID_OPTION',
  source: 'BAILIFF_MIGRATION_SOURCE',
  write: 'BAILIFF_MIGRATION_WRITE',
  upload: 'BAILIFF_MIGRATION_UPLOAD',
} as const satisfies Record<MigrationErrorKind, ErrorCodeOf<'migration'>>;

/**
 * A migration that could not finish. The message is one or two sentences for the server owner
 * (it names the file, entry or answer that was wrong) and never contains the API key.
 */
export class MigrationError extends Error {
  readonly code: (typeof MIGRATION_ERROR_CODES)[MigrationErrorKind];

  constructor(
    readonly kind: MigrationErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MigrationError';
    this.code = MIGRATION_ERROR_CODES[kind];
  }
}

export function isMigrationError(error: unknown): error is MigrationError {
  return error instanceof MigrationError;
}

export { errorMessage } from '../errors/error-message.js';
