import type { ProgressReport, UploadRecord, UploadStatus } from '../migrations.js';
import { toIso } from '../punishment-rows.js';
import { type PgDb, pgStatements } from './pool.js';

interface UploadRow {
  id: string;
  server: string;
  file_size: number;
  status: UploadStatus;
  processed: number;
  total: number;
  message: string;
  created_at: number;
  updated_at: number;
}

interface ReportRow {
  server: string;
  status: string;
  message: string;
  processed: number | null;
  total: number | null;
  reported_at: number;
}

/** The statements of {@link PgMigrationStore}. */
export const PG_MIGRATION_SQL = pgStatements('migrations', {
  insertUpload: `INSERT INTO service_migration_uploads (id, network_id, server_id, file_size, status, processed, total,
         message, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'processing', 0, $5, 'queued', $6, $6)`,
  updateUpload:
    'UPDATE service_migration_uploads SET status = $2, processed = $3, message = $4, updated_at = $5 WHERE id = $1',
  uploads: `SELECT u.id, s.name AS server, u.file_size, u.status, u.processed, u.total, u.message, u.created_at,
         u.updated_at
       FROM service_migration_uploads u JOIN service_servers s ON s.id = u.server_id
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

  async startUpload(upload: {
    id: string;
    networkId: number;
    serverId: number;
    fileSize: number;
    total: number;
    nowMs: number;
  }): Promise<void> {
    await this.db.run(PG_MIGRATION_SQL.insertUpload, [
      upload.id,
      upload.networkId,
      upload.serverId,
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
    return rows.map((row) => ({
      id: row.id,
      server: row.server,
      fileSize: row.file_size,
      status: row.status,
      processed: row.processed,
      total: row.total,
      message: row.message,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    }));
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

  async reports(networkId: number) {
    const rows = await this.db.rows<ReportRow>(PG_MIGRATION_SQL.reports, [networkId]);
    return rows.map((row) => ({
      server: row.server,
      status: row.status,
      message: row.message,
      processed: row.processed,
      total: row.total,
      reportedAt: toIso(row.reported_at),
    }));
  }
}
