import { rm } from 'node:fs/promises';
import type { MigrationStorePort, NewUpload } from '../store/ports/migrations.js';
import { checkMigrationFile } from './check-structure.js';
import type { ImportJobs } from './import-job.js';

/** The upload's import started (with how many players it holds), or the file was refused and why. */
export type AcceptedUpload = { ok: true; total: number } | { ok: false; message: string };

/** What accepting an upload needs of the service. */
export interface UploadAcceptance {
  migrations: MigrationStorePort;
  jobs: ImportJobs;
  now: () => number;
}

/**
 * Checks a received migration file, records its upload and starts its import. The file is deleted
 * here when it is refused, or when its record cannot be stored (no import job would ever delete it;
 * the store's error is thrown on).
 */
export async function acceptMigrationUpload(
  file: { path: string; size: number },
  upload: Omit<NewUpload, 'fileSize' | 'total' | 'nowMs'>,
  service: UploadAcceptance,
): Promise<AcceptedUpload> {
  const check = await checkMigrationFile(file.path);
  if (!check.ok) {
    await rm(file.path, { force: true });
    return { ok: false, message: check.message };
  }
  try {
    await service.migrations.startUpload({ ...upload, fileSize: file.size, total: check.total, nowMs: service.now() });
  } catch (error) {
    await rm(file.path, { force: true });
    throw error;
  }
  service.jobs.start({ uploadId: upload.id, networkId: upload.networkId, filePath: file.path });
  return { ok: true, total: check.total };
}
