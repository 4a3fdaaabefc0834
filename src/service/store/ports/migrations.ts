export type { ReportView, UploadRecord, UploadStatus } from '../migration-rows.js';
export type { NewUpload, ProgressReport } from '../migrations.js';

import type { ReportView, UploadRecord, UploadStatus } from '../migration-rows.js';
import type { NewUpload, ProgressReport } from '../migrations.js';

/** Migration uploads (one record per upload) and the progress servers report. */
export interface MigrationStorePort {
  startUpload(upload: NewUpload): Promise<void>;
  progress(id: string, status: UploadStatus, processed: number, message: string, nowMs: number): Promise<void>;
  /** The network's uploads, newest first. */
  uploads(networkId: number): Promise<UploadRecord[]>;
  report(report: ProgressReport): Promise<void>;
  /** The network's newest 100 reports, newest first. */
  reports(networkId: number): Promise<ReportView[]>;
}
