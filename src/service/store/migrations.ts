import type { Db } from '../../db/open-db.js';
import {
  type ReportRow,
  type ReportView,
  toReportView,
  toUploadRecord,
  UPLOAD_SENDER,
  type UploadRecord,
  type UploadRow,
  type UploadStatus,
} from './migration-rows.js';

export type { ReportView, UploadRecord, UploadStatus } from './migration-rows.js';

/** A migration upload as it starts (status `processing`, message `queued`). */
export interface NewUpload {
  id: string;
  networkId: number;
  /** The server whose key uploaded it; null for an upload from the panel. */
  serverId: number | null;
  /** The panel username that uploaded it. */
  uploadedBy?: string | null;
  fileSize: number;
  total: number;
  nowMs: number;
}

export interface ProgressReport {
  networkId: number;
  serverId: number;
  status: string;
  message: string;
  processed?: number;
  total?: number;
  reportedAt: number;
}

/** The statements of {@link MigrationStore}; test/service/query-plans.test.ts checks each one's plan. */
export const MIGRATION_SQL = {
  insertUpload: `INSERT INTO service_migration_uploads (id, network_id, server_id, uploaded_by, file_size, status, processed, total, message, created_at, updated_at)
       VALUES (@id, @networkId, @serverId, @uploadedBy, @fileSize, 'processing', 0, @total, 'queued', @nowMs, @nowMs)`,
  updateUpload: `UPDATE service_migration_uploads SET status = @status, processed = @processed, message = @message, updated_at = @nowMs
       WHERE id = @id`,
  uploads: `SELECT u.id, ${UPLOAD_SENDER}, u.file_size, u.status,
         u.processed, u.total, u.message, u.created_at, u.updated_at
       FROM service_migration_uploads u LEFT JOIN service_servers s ON s.id = u.server_id
       WHERE u.network_id = ? ORDER BY u.created_at DESC, u.rowid DESC`,
  insertReport: `INSERT INTO service_migration_reports (network_id, server_id, status, message, processed, total, reported_at)
       VALUES (@networkId, @serverId, @status, @message, @processed, @total, @reportedAt)`,
  reports: `SELECT s.name AS server, r.status, r.message, r.processed, r.total, r.reported_at
       FROM service_migration_reports r JOIN service_servers s ON s.id = r.server_id
       WHERE r.network_id = ? ORDER BY r.id DESC LIMIT 100`,
} as const;

/** Migration uploads (one record per upload) and the progress servers report. */
export class MigrationStore {
  private readonly insertUpload;
  private readonly updateUpload;
  private readonly listUploads;
  private readonly insertReport;
  private readonly listReports;

  constructor(db: Db) {
    this.insertUpload = db.prepare(MIGRATION_SQL.insertUpload);
    this.updateUpload = db.prepare(MIGRATION_SQL.updateUpload);
    this.listUploads = db.prepare<[number], UploadRow>(MIGRATION_SQL.uploads);
    this.insertReport = db.prepare(MIGRATION_SQL.insertReport);
    this.listReports = db.prepare<[number], ReportRow>(MIGRATION_SQL.reports);
  }

  startUpload(upload: NewUpload): void {
    this.insertUpload.run({ ...upload, uploadedBy: upload.uploadedBy ?? null });
  }

  progress(id: string, status: UploadStatus, processed: number, message: string, nowMs: number): void {
    this.updateUpload.run({ id, status, processed, message, nowMs });
  }

  uploads(networkId: number): UploadRecord[] {
    return this.listUploads.all(networkId).map(toUploadRecord);
  }

  report(report: ProgressReport): void {
    this.insertReport.run({ ...report, processed: report.processed ?? null, total: report.total ?? null });
  }

  reports(networkId: number): ReportView[] {
    return this.listReports.all(networkId).map(toReportView);
  }
}
