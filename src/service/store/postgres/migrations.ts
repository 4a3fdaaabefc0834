import {
  type ReportRow,
  type ReportView,
  toReportView,
  toUploadRecord,
  UPLOAD_SENDER,
  type UploadRecord,
  type UploadRow,
  type UploadStatus,
} from '../migration-rows.js';
import type { NewUpload, ProgressReport } from '../migrations.js';
import { type PgDb, pgStatements } from './pool.js';

/** The statements of {@link PgMigrationStore}. */
export const PG_MIGRATION_SQL = pgStatements('migrations', {
  insertUpload: `INSERT INTO service_migration_uploads (id, network_id, server_id, uploaded_by, file_size, status,
         processed, total, message, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'processing', 0, $6, 'queued', $7, $7)`,
  updateUpload:
    'UPDATE service_migration_uploads SET status = $2, processed = $3, message = $4, updated_at = $5 WHERE id = $1',
  uploads: `SELECT u.id, ${UPLOAD_SENDER}, u.file_size, u.status, u.processed, u.total, u.message, u.created_at,
         u.updated_at
       FROM service_migration_uploads u LEFT JOIN service_servers s ON s.id = u.server_id
       WHERE u.network_id = $1 ORDER BY u.created_at DESC, u.seq DESC`,
  insertReport: `INSERT INTO service_migration_reports (network_id, server_id, status, message, processed, total, reported_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  reports: `SELECT s.name AS server, r.status, r.message, r.processed, r.total, r.reported_at
       FROM service_migration_reports r JOIN service_servers s ON s.id = r.server_id
       WHERE r.network_id = $1 ORDER BY r.id DESC LIMIT 100`,
});

/** Migration uploads and the progress servers report, on PostgreSQL: every instance sees every import. */
export class PgMigrationStore {
  constructor(private readonly db: PgDb) {}

  async startUpload(upload: NewUpload): Promise<void> {
    await this.db.run(PG_MIGRATION_SQL.insertUpload, [
      upload.id,
      upload.networkId,
      upload.serverId,
      upload.uploadedBy ?? null,
      upload.fileSize,
      upload.total,
      upload.nowMs,
    ]);
  }

  async progress(id: string, status: UploadStatus, processed: number, message: string, nowMs: number): Promise<void> {
    await this.db.run(PG_MIGRATION_SQL.updateUpload, [id, status, processed, message, nowMs]);
  }

  async uploads(networkId: number): Promise<UploadRecord[]> {
    const rows = await this.db.rows<UploadRow>(PG_MIGRATION_SQL.uploads, [networkId]);
    return rows.map(toUploadRecord);
  }

  async report(report: ProgressReport): Promise<void> {
    await this.db.run(PG_MIGRATION_SQL.insertReport, [
      report.networkId,
      report.serverId,
      report.status,
      report.message,
      report.processed ?? null,
      report.total ?? null,
      report.reportedAt,
    ]);
  }

  async reports(networkId: number): Promise<ReportView[]> {
    const rows = await this.db.rows<ReportRow>(PG_MIGRATION_SQL.reports, [networkId]);
    return rows.map(toReportView);
  }
}
