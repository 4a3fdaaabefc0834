import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import {
  type ImportLease,
  LEASED_IMPORT_COLUMNS,
  type LeasedImport,
  type LeasedImportRow,
  type ReportRow,
  type ReportView,
  toLeasedImport,
  toReportView,
  toUploadRecord,
  UPLOAD_SENDER,
  type UploadRecord,
  type UploadRow,
  type UploadStatus,
} from '../migration-rows.js';
import type { ImportProgress, NewUpload, ProgressReport } from '../migrations.js';

/** The statements of {@link PgMigrationStore}. */
export const PG_MIGRATION_SQL = pgStatements('migrations', {
  insertUpload: `INSERT INTO service_migration_uploads (id, network_id, server_id, uploaded_by, file_size, status,
         processed, total, message, created_at, updated_at, leased_by, lease_expires_at)
       VALUES ($1, $2, $3, $4, $5, 'processing', 0, $6, $8, $7, $7, $9, $10)`,
  updateUpload:
    'UPDATE service_migration_uploads SET status = $2, processed = $3, message = $4, updated_at = $5 WHERE id = $1',
  uploads: `SELECT u.id, ${UPLOAD_SENDER}, u.file_size, u.status, u.processed, u.total, u.message, u.created_at,
         u.updated_at
       FROM service_migration_uploads u LEFT JOIN service_servers s ON s.id = u.server_id
       WHERE u.network_id = $1 ORDER BY u.created_at DESC, u.seq DESC`,
  upload: `SELECT u.id, ${UPLOAD_SENDER}, u.file_size, u.status, u.processed, u.total, u.message, u.created_at,
         u.updated_at
       FROM service_migration_uploads u LEFT JOIN service_servers s ON s.id = u.server_id
       WHERE u.id = $1 AND u.network_id = $2`,
  insertReport: `INSERT INTO service_migration_reports (network_id, server_id, status, message, processed, total, reported_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  reports: `SELECT s.name AS server, r.status, r.message, r.processed, r.total, r.reported_at
       FROM service_migration_reports r JOIN service_servers s ON s.id = r.server_id
       WHERE r.network_id = $1 ORDER BY r.id DESC LIMIT 100`,
  storeChunk: 'INSERT INTO service_migration_chunks (upload_id, seq, data) VALUES ($1, $2, $3)',
  chunk: 'SELECT data FROM service_migration_chunks WHERE upload_id = $1 AND seq = $2',
  dropChunks: 'DELETE FROM service_migration_chunks WHERE upload_id = $1',
  markStored: 'UPDATE service_migration_uploads SET stored_chunks = $2, message = $3, updated_at = $4 WHERE id = $1',
  // Every write of an import's holder is conditional on still holding it: cancelled or taken over, it changes nothing.
  renewLease: `UPDATE service_migration_uploads SET lease_expires_at = $3
       WHERE id = $1 AND leased_by = $2 AND status = 'processing'`,
  advance: `UPDATE service_migration_uploads SET processed = $4, tally = $5, message = $6, updated_at = $7,
         lease_expires_at = $3
       WHERE id = $1 AND leased_by = $2 AND status = 'processing'`,
  finish: `UPDATE service_migration_uploads SET status = $3, processed = $4, tally = $5, message = $6, updated_at = $7,
         leased_by = NULL, lease_expires_at = 0
       WHERE id = $1 AND leased_by = $2 AND status = 'processing'`,
  release: `UPDATE service_migration_uploads SET lease_expires_at = 0
       WHERE id = $1 AND leased_by = $2 AND status = 'processing'`,
  // Instances looking at once each take a different import (or none): a row another is taking is skipped.
  claimExpired: `UPDATE service_migration_uploads SET leased_by = $1, lease_expires_at = $2
       WHERE id = (SELECT id FROM service_migration_uploads
           WHERE status = 'processing' AND lease_expires_at < $3 ORDER BY lease_expires_at LIMIT 1
           FOR UPDATE SKIP LOCKED)
         AND status = 'processing' AND lease_expires_at < $3
       RETURNING ${LEASED_IMPORT_COLUMNS}`,
  cancel: `UPDATE service_migration_uploads SET status = 'failed', message = $3, updated_at = $4,
         leased_by = NULL, lease_expires_at = 0
       WHERE id = $2 AND network_id = $1 AND status = 'processing'`,
});

/** Migration uploads, their files while imported, their leases and the progress servers report, on PostgreSQL. */
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
      upload.message ?? 'queued',
      upload.lease?.owner ?? null,
      upload.lease?.expiresAtMs ?? 0,
    ]);
  }

  async progress(id: string, status: UploadStatus, processed: number, message: string, nowMs: number): Promise<void> {
    await this.db.run(PG_MIGRATION_SQL.updateUpload, [id, status, processed, message, nowMs]);
  }

  async uploads(networkId: number): Promise<UploadRecord[]> {
    const rows = await this.db.rows<UploadRow>(PG_MIGRATION_SQL.uploads, [networkId]);
    return rows.map(toUploadRecord);
  }

  async find(networkId: number, id: string): Promise<UploadRecord | undefined> {
    const row = await this.db.row<UploadRow>(PG_MIGRATION_SQL.upload, [id, networkId]);
    return row && toUploadRecord(row);
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

  async storeChunk(uploadId: string, seq: number, data: Buffer): Promise<void> {
    await this.db.run(PG_MIGRATION_SQL.storeChunk, [uploadId, seq, data]);
  }

  async chunk(uploadId: string, seq: number): Promise<Buffer | undefined> {
    return (await this.db.row<{ data: Buffer }>(PG_MIGRATION_SQL.chunk, [uploadId, seq]))?.data;
  }

  dropChunks(uploadId: string): Promise<number> {
    return this.db.run(PG_MIGRATION_SQL.dropChunks, [uploadId]);
  }

  async markStored(id: string, chunks: number, message: string, nowMs: number): Promise<void> {
    await this.db.run(PG_MIGRATION_SQL.markStored, [id, chunks, message, nowMs]);
  }

  async renewLease(id: string, lease: ImportLease): Promise<boolean> {
    return (await this.db.run(PG_MIGRATION_SQL.renewLease, [id, lease.owner, lease.expiresAtMs])) === 1;
  }

  async advance(id: string, lease: ImportLease, progress: ImportProgress): Promise<boolean> {
    const values = [
      id,
      lease.owner,
      lease.expiresAtMs,
      progress.processed,
      JSON.stringify(progress.tally),
      progress.message,
      progress.nowMs,
    ];
    return (await this.db.run(PG_MIGRATION_SQL.advance, values)) === 1;
  }

  async finish(
    id: string,
    owner: string,
    status: Exclude<UploadStatus, 'processing'>,
    progress: ImportProgress,
  ): Promise<boolean> {
    const values = [
      id,
      owner,
      status,
      progress.processed,
      JSON.stringify(progress.tally),
      progress.message,
      progress.nowMs,
    ];
    return (await this.db.run(PG_MIGRATION_SQL.finish, values)) === 1;
  }

  async release(id: string, owner: string): Promise<boolean> {
    return (await this.db.run(PG_MIGRATION_SQL.release, [id, owner])) === 1;
  }

  async claimExpired(lease: ImportLease, nowMs: number): Promise<LeasedImport | undefined> {
    const row = await this.db.row<LeasedImportRow>(PG_MIGRATION_SQL.claimExpired, [
      lease.owner,
      lease.expiresAtMs,
      nowMs,
    ]);
    return row && toLeasedImport(row);
  }

  async cancel(networkId: number, id: string, message: string, nowMs: number): Promise<boolean> {
    return (await this.db.run(PG_MIGRATION_SQL.cancel, [networkId, id, message, nowMs])) === 1;
  }
}
