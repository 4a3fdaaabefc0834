import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';

/** The form field the contract names for the migration file. */
export const MIGRATION_FILE_FIELD = 'migrationFile';

/**
 * A `multipart/form-data` body whose file part is read from disk while it is sent:
 * `openAsBlob` only records the path and size, and fetch pulls the bytes chunk by chunk,
 * so a 100 MB migration file never sits in memory. fetch sets the boundary header itself.
 * Rejects with the file system error (ENOENT, EISDIR, EACCES) when the file cannot be opened.
 */
export async function migrationForm(filePath: string): Promise<FormData> {
  const file = await openAsBlob(filePath, { type: 'application/json' });
  const form = new FormData();
  form.append(MIGRATION_FILE_FIELD, file, basename(filePath));
  return form;
}
