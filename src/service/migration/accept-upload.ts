import { rm } from 'node:fs/promises';
import { checkMigrationFile } from './check-structure.js';
import type { ImportJobs, UploadToImport } from './import-job.js';

/** The upload's import started (with how many players it holds), or the file was refused and why. */
export type AcceptedUpload = { ok: true; total: number } | { ok: false; message: string };

/**
 * Checks a received migration file, then records its upload, stores the file in the database and
 * starts its import. The received file is deleted either way.
 */
export async function acceptMigrationUpload(
  file: { path: string; size: number },
  upload: Omit<UploadToImport, 'total'>,
  jobs: ImportJobs,
): Promise<AcceptedUpload> {
  const check = await checkMigrationFile(file.path);
  if (!check.ok) {
    await rm(file.path, { force: true });
    return { ok: false, message: check.message };
  }
  await jobs.accept({ ...upload, total: check.total }, file);
  return { ok: true, total: check.total };
}
