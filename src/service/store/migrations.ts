import type { Db } from '../../db/open-db.js';
import {
  type ImportLease,
  type ImportTally,
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
} from './migration-rows.js';

export type {
  ImportLease,
  ImportTally,
  LeasedImport,
  ReportView,
  UploadRecord,
  UploadStatus,
} from './migration-rows.js';

/** A migration upload as it starts (status `processing`, message `queued` unless given). */
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
  /** @default 'queued' */
  message?: string;
  /** The instance storing and importing it. @default none (any instance may take it) */
  lease?: ImportLease;
}

/** Where an import stands after a committed batch. */
export interface ImportProgress {
  processed: number;
  tally: ImportTally;
  message: string;
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
  insertUpload: `INSERT INTO service_migration_uploads (id, network_id, server_id, uploaded_by, file_size, status, processed,
         total, message, created_at, updated_at, leased_by, lease_expires_at)
       VALUES (@id, @networkId, @serverId, @uploadedBy, @fileSize, 'processing', 0, @total, @message, @nowMs, @nowMs,
         @leasedBy, @leaseExpiresAt)`,
  updateUpload: `UPDATE service_migration_uploads SET status = @status, processed = @processed, message = @message, updated_at = @nowMs
       WHERE id = @id`,
  uploads: `SELECT u.id, ${UPLOAD_SENDER}, u.file_size, u.status,
         u.processed, u.total, u.message, u.created_at, u.updated_at
       FROM service_migration_uploads u LEFT JOIN service_servers s ON s.id = u.server_id
       WHERE u.network_id = ? ORDER BY u.created_at DESC, u.rowid DESC`,
  upload: `SELECT u.id, ${UPLOAD_SENDER}, u.file_size, u.status,
         u.processed, u.total, u.message, u.created_at, u.updated_at
       FROM service_migration_uploads u LEFT JOIN service_servers s ON s.id = u.server_id
       WHERE u.id = ? AND u.network_id = ?`,
  insertReport: `INSERT INTO service_migration_reports (network_id, server_id, status, message, processed, total, reported_at)
       VALUES (@networkId, @serverId, @status, @message, @processed, @total, @reportedAt)`,
  reports: `SELECT s.name AS server, r.status, r.message, r.processed, r.total, r.reported_at
       FROM service_migration_reports r JOIN service_servers s ON s.id = r.server_id
       WHERE r.network_id = ? ORDER BY r.id DESC LIMIT 100`,
  storeChunk: 'INSERT INTO service_migration_chunks (upload_id, seq, data) VALUES (?, ?, ?)',
  chunk: 'SELECT data FROM service_migration_chunks WHERE upload_id = ? AND seq = ?',
  dropChunks: 'DELETE FROM service_migration_chunks WHERE upload_id = ?',
  markStored: `UPDATE service_migration_uploads SET stored_chunks = @chunks, message = @message, updated_at = @nowMs
       WHERE id = @id`,
  // Every write of an import's holder is conditional on still holding it: cancelled or taken over, it changes nothing.
  renewLease: `UPDATE service_migration_uploads SET lease_expires_at = @expiresAtMs
       WHERE id = @id AND leased_by = @owner AND status = 'processing'`,
  advance: `UPDATE service_migration_uploads SET processed = @processed, tally = @tally, message = @message,
         updated_at = @nowMs, lease_expires_at = @expiresAtMs
       WHERE id = @id AND leased_by = @owner AND status = 'processing'`,
  finish: `UPDATE service_migration_uploads SET status = @status, processed = @processed, tally = @tally,
         message = @message, updated_at = @nowMs, leased_by = NULL, lease_expires_at = 0
       WHERE id = @id AND leased_by = @owner AND status = 'processing'`,
  release: `UPDATE service_migration_uploads SET lease_expires_at = 0
       WHERE id = @id AND leased_by = @owner AND status = 'processing'`,
  claimExpired: `UPDATE service_migration_uploads SET leased_by = @owner, lease_expires_at = @expiresAtMs
       WHERE id = (SELECT id FROM service_migration_uploads
           WHERE status = 'processing' AND lease_expires_at < @nowMs ORDER BY lease_expires_at LIMIT 1)
         AND status = 'processing' AND lease_expires_at < @nowMs
       RETURNING ${LEASED_IMPORT_COLUMNS}`,
  cancel: `UPDATE service_migration_uploads SET status = 'failed', message = @message, updated_at = @nowMs,
         leased_by = NULL, lease_expires_at = 0
       WHERE id = @id AND network_id = @networkId AND status = 'processing'`,
} as const;

/**
 * Migration uploads (one record per upload), the files of those being imported (in chunks), the
 * leases of their imports, and the progress servers report.
 */
export class MigrationStore {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      insertUpload: db.prepare(MIGRATION_SQL.insertUpload),
      updateUpload: db.prepare(MIGRATION_SQL.updateUpload),
      uploads: db.prepare<[number], UploadRow>(MIGRATION_SQL.uploads),
      upload: db.prepare<[string, number], UploadRow>(MIGRATION_SQL.upload),
      insertReport: db.prepare(MIGRATION_SQL.insertReport),
      reports: db.prepare<[number], ReportRow>(MIGRATION_SQL.reports),
      storeChunk: db.prepare<[string, number, Buffer]>(MIGRATION_SQL.storeChunk),
      chunk: db.prepare<[string, number], { data: Buffer }>(MIGRATION_SQL.chunk),
      dropChunks: db.prepare<[string]>(MIGRATION_SQL.dropChunks),
      markStored: db.prepare(MIGRATION_SQL.markStored),
      renewLease: db.prepare(MIGRATION_SQL.renewLease),
      advance: db.prepare(MIGRATION_SQL.advance),
      finish: db.prepare(MIGRATION_SQL.finish),
      release: db.prepare(MIGRATION_SQL.release),
      claimExpired: db.prepare<Record<string, unknown>, LeasedImportRow>(MIGRATION_SQL.claimExpired),
      cancel: db.prepare(MIGRATION_SQL.cancel),
    };
  }

  startUpload(upload: NewUpload): void {
    this.statements.insertUpload.run({
      ...upload,
      uploadedBy: upload.uploadedBy ?? null,
      message: upload.message ?? 'queued',
      leasedBy: upload.lease?.owner ?? null,
      leaseExpiresAt: upload.lease?.expiresAtMs ?? 0,
    });
  }

  progress(id: string, status: UploadStatus, processed: number, message: string, nowMs: number): void {
    this.statements.updateUpload.run({ id, status, processed, message, nowMs });
  }

  uploads(networkId: number): UploadRecord[] {
    return this.statements.uploads.all(networkId).map(toUploadRecord);
  }

  /** One upload of the network, or undefined. */
  find(networkId: number, id: string): UploadRecord | undefined {
    const row = this.statements.upload.get(id, networkId);
    return row && toUploadRecord(row);
  }

  report(report: ProgressReport): void {
    this.statements.insertReport.run({ ...report, processed: report.processed ?? null, total: report.total ?? null });
  }

  reports(networkId: number): ReportView[] {
    return this.statements.reports.all(networkId).map(toReportView);
  }

  storeChunk(uploadId: string, seq: number, data: Buffer): void {
    this.statements.storeChunk.run(uploadId, seq, data);
  }

  chunk(uploadId: string, seq: number): Buffer | undefined {
    return this.statements.chunk.get(uploadId, seq)?.data;
  }

  /** Deletes the stored file of an upload; returns how many chunks. */
  dropChunks(uploadId: string): number {
    return this.statements.dropChunks.run(uploadId).changes;
  }

  /** The whole file is stored, in `chunks` chunks. */
  markStored(id: string, chunks: number, message: string, nowMs: number): void {
    this.statements.markStored.run({ id, chunks, message, nowMs });
  }

  /** Extends the lease; false when `lease.owner` no longer holds the import (cancelled, finished or taken over). */
  renewLease(id: string, lease: ImportLease): boolean {
    return this.statements.renewLease.run({ id, ...lease }).changes === 1;
  }

  /** Records a committed batch and extends the lease; false (nothing written) when `lease.owner` no longer holds it. */
  advance(id: string, lease: ImportLease, progress: ImportProgress): boolean {
    const { processed, message, nowMs } = progress;
    const tally = JSON.stringify(progress.tally);
    return this.statements.advance.run({ id, ...lease, processed, tally, message, nowMs }).changes === 1;
  }

  /** Ends the import as `status` and lets go of it; false when `owner` no longer holds it. */
  finish(id: string, owner: string, status: Exclude<UploadStatus, 'processing'>, progress: ImportProgress): boolean {
    const { processed, message, nowMs } = progress;
    const tally = JSON.stringify(progress.tally);
    return this.statements.finish.run({ id, owner, status, processed, tally, message, nowMs }).changes === 1;
  }

  /** Lets go of an import still running (the service stops): any instance may take it over at once. */
  release(id: string, owner: string): boolean {
    return this.statements.release.run({ id, owner }).changes === 1;
  }

  /** Takes the import whose lease ran out longest ago, if any, for `lease.owner` until `lease.expiresAtMs`. */
  claimExpired(lease: ImportLease, nowMs: number): LeasedImport | undefined {
    const row = this.statements.claimExpired.get({ ...lease, nowMs });
    return row && toLeasedImport(row);
  }

  /** Marks a running import failed with `message` (an operator cancelled it); false when it was not running. */
  cancel(networkId: number, id: string, message: string, nowMs: number): boolean {
    return this.statements.cancel.run({ networkId, id, message, nowMs }).changes === 1;
  }
}
