import { sql as raw, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { prepare, type Slots, type SqlContext } from '../db/prepared.js';
import type { ServiceTables } from '../db/tables.js';
import {
  type ImportLease,
  type LeasedImport,
  type LeasedImportRow,
  type ReportRow,
  type ReportView,
  toLeasedImport,
  toReportView,
  toUploadRecord,
  type UploadRecord,
  type UploadRow,
  type UploadStatus,
} from './migration-rows.js';
import type { ImportProgress, MigrationStorePort, NewUpload, ProgressReport } from './ports/migrations.js';

type Uploads = UpdateQueryBuilder<
  ServiceTables,
  'service_migration_uploads',
  'service_migration_uploads',
  UpdateResult
>;
type Held = { id: string; owner: string };
type Progress = { processed: number; tally: string; message: string; nowMs: number };

const PROCESSING = raw.lit('processing');

/** Every write of an import's holder is conditional on still holding it: cancelled or taken over, it changes nothing. */
const whileHeld = (update: Uploads, p: Slots<Held>) =>
  update.where('id', '=', p.id).where('leased_by', '=', p.owner).where('status', '=', PROCESSING);

/** The statements of {@link MigrationStore}; the query-plan tests check each one's plan. */
export const MIGRATION_STATEMENTS = {
  insertUpload: prepare<
    Omit<NewUpload, 'lease' | 'uploadedBy' | 'message'> & {
      uploadedBy: string | null;
      message: string;
      leasedBy: string | null;
      leaseExpiresAt: number;
    },
    never
  >('migrations.insertUpload', ({ db }, p) =>
    db.insertInto('service_migration_uploads').values({
      id: p.id,
      network_id: p.networkId,
      server_id: p.serverId,
      uploaded_by: p.uploadedBy,
      file_size: p.fileSize,
      status: PROCESSING,
      processed: 0,
      total: p.total,
      message: p.message,
      created_at: p.nowMs,
      updated_at: p.nowMs,
      leased_by: p.leasedBy,
      lease_expires_at: p.leaseExpiresAt,
    }),
  ),
  updateUpload: prepare<{ id: string; status: string; processed: number; message: string; nowMs: number }, never>(
    'migrations.updateUpload',
    ({ db }, p) =>
      db
        .updateTable('service_migration_uploads')
        .set({ status: p.status, processed: p.processed, message: p.message, updated_at: p.nowMs })
        .where('id', '=', p.id),
  ),
  uploads: prepare<{ networkId: number }, UploadRow>('migrations.uploads', ({ db, choices }, p) =>
    uploadRows(db)
      .where('u.network_id', '=', p.networkId)
      .orderBy('u.created_at', 'desc')
      .orderBy(choices.insertionOrderOf('u'), 'desc'),
  ),
  upload: prepare<{ id: string; networkId: number }, UploadRow>('migrations.upload', ({ db }, p) =>
    uploadRows(db).where('u.id', '=', p.id).where('u.network_id', '=', p.networkId),
  ),
  insertReport: prepare<
    Omit<ProgressReport, 'processed' | 'total'> & { processed: number | null; total: number | null },
    never
  >('migrations.insertReport', ({ db }, p) =>
    db.insertInto('service_migration_reports').values({
      network_id: p.networkId,
      server_id: p.serverId,
      status: p.status,
      message: p.message,
      processed: p.processed,
      total: p.total,
      reported_at: p.reportedAt,
    }),
  ),
  reports: prepare<{ networkId: number }, ReportRow>('migrations.reports', ({ db }, p) =>
    db
      .selectFrom('service_migration_reports as r')
      .innerJoin('service_servers as s', 's.id', 'r.server_id')
      .select(['s.name as server', 'r.status', 'r.message', 'r.processed', 'r.total', 'r.reported_at'])
      .where('r.network_id', '=', p.networkId)
      .orderBy('r.id', 'desc')
      .limit(100),
  ),
  storeChunk: prepare<{ uploadId: string; seq: number; data: Buffer }, never>('migrations.storeChunk', ({ db }, p) =>
    db.insertInto('service_migration_chunks').values({ upload_id: p.uploadId, seq: p.seq, data: p.data }),
  ),
  chunk: prepare<{ uploadId: string; seq: number }, { data: Buffer }>('migrations.chunk', ({ db }, p) =>
    db
      .selectFrom('service_migration_chunks')
      .select('data')
      .where('upload_id', '=', p.uploadId)
      .where('seq', '=', p.seq),
  ),
  dropChunks: prepare<{ uploadId: string }, never>('migrations.dropChunks', ({ db }, p) =>
    db.deleteFrom('service_migration_chunks').where('upload_id', '=', p.uploadId),
  ),
  markStored: prepare<{ id: string; chunks: number; message: string; nowMs: number }, never>(
    'migrations.markStored',
    ({ db }, p) =>
      db
        .updateTable('service_migration_uploads')
        .set({ stored_chunks: p.chunks, message: p.message, updated_at: p.nowMs })
        .where('id', '=', p.id),
  ),
  renewLease: prepare<Held & { expiresAtMs: number }, never>('migrations.renewLease', ({ db }, p) =>
    whileHeld(db.updateTable('service_migration_uploads').set({ lease_expires_at: p.expiresAtMs }), p),
  ),
  advance: prepare<Held & Progress & { expiresAtMs: number }, never>('migrations.advance', ({ db }, p) =>
    whileHeld(
      db.updateTable('service_migration_uploads').set({
        processed: p.processed,
        tally: p.tally,
        message: p.message,
        updated_at: p.nowMs,
        lease_expires_at: p.expiresAtMs,
      }),
      p,
    ),
  ),
  finish: prepare<Held & Progress & { status: string }, never>('migrations.finish', ({ db }, p) =>
    whileHeld(
      db.updateTable('service_migration_uploads').set({
        status: p.status,
        processed: p.processed,
        tally: p.tally,
        message: p.message,
        updated_at: p.nowMs,
        leased_by: null,
        lease_expires_at: 0,
      }),
      p,
    ),
  ),
  release: prepare<Held, never>('migrations.release', ({ db }, p) =>
    whileHeld(db.updateTable('service_migration_uploads').set({ lease_expires_at: 0 }), p),
  ),
  // PostgreSQL: instances looking at once each take a different import (or none), a row another is
  // taking is skipped; SQLite has one writer.
  claimExpired: prepare<{ owner: string; expiresAtMs: number; nowMs: number }, LeasedImportRow>(
    'migrations.claimExpired',
    ({ db, choices }, p) =>
      db
        .updateTable('service_migration_uploads')
        .set({ leased_by: p.owner, lease_expires_at: p.expiresAtMs })
        .where('id', '=', (eb) =>
          choices.skipLockedRows(
            eb
              .selectFrom('service_migration_uploads')
              .select('id')
              .where('status', '=', PROCESSING)
              .where('lease_expires_at', '<', p.nowMs)
              .orderBy('lease_expires_at')
              .limit(1),
          ),
        )
        .where('status', '=', PROCESSING)
        .where('lease_expires_at', '<', p.nowMs)
        .returning(['id', 'network_id as networkId', 'processed', 'total', 'tally', 'stored_chunks as storedChunks']),
  ),
  cancel: prepare<{ networkId: number; id: string; message: string; nowMs: number }, never>(
    'migrations.cancel',
    ({ db }, p) =>
      db
        .updateTable('service_migration_uploads')
        .set({
          status: raw.lit('failed'),
          message: p.message,
          updated_at: p.nowMs,
          leased_by: null,
          lease_expires_at: 0,
        })
        .where('id', '=', p.id)
        .where('network_id', '=', p.networkId)
        .where('status', '=', PROCESSING),
  ),
};

/** Uploads as listed: who sent each (the server, or for an upload from the panel the staff member). */
function uploadRows(db: SqlContext['db']) {
  return db
    .selectFrom('service_migration_uploads as u')
    .leftJoin('service_servers as s', 's.id', 'u.server_id')
    .select(({ fn, ref }) => [
      'u.id',
      fn
        .coalesce('s.name', raw<string>`'panel (' || ${ref('u.uploaded_by')} || ')'`, raw.lit('panel'))
        .$castTo<string>()
        .as('server'),
      'u.file_size',
      'u.status',
      'u.processed',
      'u.total',
      'u.message',
      'u.created_at',
      'u.updated_at',
    ])
    .$castTo<UploadRow>();
}

const q = MIGRATION_STATEMENTS;

/** Migration uploads, their files while imported, their leases and the progress servers report. */
export class MigrationStore implements MigrationStorePort {
  constructor(private readonly sql: SqlContext) {}

  async startUpload(upload: NewUpload): Promise<void> {
    await q.insertUpload.run(this.sql, {
      id: upload.id,
      networkId: upload.networkId,
      serverId: upload.serverId,
      uploadedBy: upload.uploadedBy ?? null,
      fileSize: upload.fileSize,
      total: upload.total,
      nowMs: upload.nowMs,
      message: upload.message ?? 'queued',
      leasedBy: upload.lease?.owner ?? null,
      leaseExpiresAt: upload.lease?.expiresAtMs ?? 0,
    });
  }

  async progress(id: string, status: UploadStatus, processed: number, message: string, nowMs: number): Promise<void> {
    await q.updateUpload.run(this.sql, { id, status, processed, message, nowMs });
  }

  async uploads(networkId: number): Promise<UploadRecord[]> {
    return (await q.uploads.all(this.sql, { networkId })).map(toUploadRecord);
  }

  async find(networkId: number, id: string): Promise<UploadRecord | undefined> {
    const row = await q.upload.first(this.sql, { id, networkId });
    return row && toUploadRecord(row);
  }

  async report(report: ProgressReport): Promise<void> {
    await q.insertReport.run(this.sql, { ...report, processed: report.processed ?? null, total: report.total ?? null });
  }

  async reports(networkId: number): Promise<ReportView[]> {
    return (await q.reports.all(this.sql, { networkId })).map(toReportView);
  }

  async storeChunk(uploadId: string, seq: number, data: Buffer): Promise<void> {
    await q.storeChunk.run(this.sql, { uploadId, seq, data });
  }

  async chunk(uploadId: string, seq: number): Promise<Buffer | undefined> {
    const data = (await q.chunk.first(this.sql, { uploadId, seq }))?.data;
    return data && Buffer.from(data);
  }

  dropChunks(uploadId: string): Promise<number> {
    return q.dropChunks.run(this.sql, { uploadId });
  }

  async markStored(id: string, chunks: number, message: string, nowMs: number): Promise<void> {
    await q.markStored.run(this.sql, { id, chunks, message, nowMs });
  }

  async renewLease(id: string, lease: ImportLease): Promise<boolean> {
    return (await q.renewLease.run(this.sql, { id, owner: lease.owner, expiresAtMs: lease.expiresAtMs })) === 1;
  }

  async advance(id: string, lease: ImportLease, progress: ImportProgress): Promise<boolean> {
    const values = { id, owner: lease.owner, expiresAtMs: lease.expiresAtMs, ...progressColumns(progress) };
    return (await q.advance.run(this.sql, values)) === 1;
  }

  async finish(
    id: string,
    owner: string,
    status: Exclude<UploadStatus, 'processing'>,
    progress: ImportProgress,
  ): Promise<boolean> {
    return (await q.finish.run(this.sql, { id, owner, status, ...progressColumns(progress) })) === 1;
  }

  async release(id: string, owner: string): Promise<boolean> {
    return (await q.release.run(this.sql, { id, owner })) === 1;
  }

  async claimExpired(lease: ImportLease, nowMs: number): Promise<LeasedImport | undefined> {
    const row = await q.claimExpired.first(this.sql, { owner: lease.owner, expiresAtMs: lease.expiresAtMs, nowMs });
    return row && toLeasedImport(row);
  }

  async cancel(networkId: number, id: string, message: string, nowMs: number): Promise<boolean> {
    return (await q.cancel.run(this.sql, { networkId, id, message, nowMs })) === 1;
  }
}

const progressColumns = (progress: ImportProgress): Progress => ({
  processed: progress.processed,
  tally: JSON.stringify(progress.tally),
  message: progress.message,
  nowMs: progress.nowMs,
});
