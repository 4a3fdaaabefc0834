import { toIso } from './dates.js';

export type UploadStatus = 'processing' | 'completed' | 'failed';

/** What an import counted so far: kept with the upload, so an import resumed elsewhere adds to it. */
export interface ImportTally {
  players: number;
  punishments: number;
  duplicates: number;
  invalid: number;
}

export const emptyTally = (): ImportTally => ({ players: 0, punishments: 0, duplicates: 0, invalid: 0 });

/** One instance's hold on an import, until `expiresAtMs` unless renewed. */
export interface ImportLease {
  owner: string;
  expiresAtMs: number;
}

/** An import an instance has just taken over: where it stands. */
export interface LeasedImport {
  id: string;
  networkId: number;
  processed: number;
  total: number;
  tally: ImportTally;
  /** Chunks of the stored file; null when the file was never stored whole. */
  storedChunks: number | null;
}

/** A taken-over import as both databases return it. */
export interface LeasedImportRow {
  id: string;
  networkId: number;
  processed: number;
  total: number;
  tally: string | null;
  storedChunks: number | null;
}

export function toLeasedImport(row: LeasedImportRow): LeasedImport {
  return { ...row, tally: row.tally === null ? emptyTally() : { ...emptyTally(), ...JSON.parse(row.tally) } };
}

/** The columns a taken-over import is returned with (`RETURNING`), the same on both databases. */
export const LEASED_IMPORT_COLUMNS =
  'id, network_id AS "networkId", processed, total, tally, stored_chunks AS "storedChunks"';

export interface UploadRecord {
  id: string;
  server: string;
  fileSize: number;
  status: UploadStatus;
  processed: number;
  total: number;
  message: string;
  createdAt: string;
  updatedAt: string;
}

/** One progress report of a server, as listed (newest first, at most 100). */
export interface ReportView {
  server: string;
  status: string;
  message: string;
  processed: number | null;
  total: number | null;
  reportedAt: string;
}

/**
 * Who sent an upload, from `service_migration_uploads u LEFT JOIN service_servers s`: the server, or
 * for an upload from the panel (no server) the staff member. Both databases take this expression.
 */
export const UPLOAD_SENDER = `coalesce(s.name, 'panel (' || u.uploaded_by || ')', 'panel') AS server`;

/** An upload as both databases' listing selects it. */
export interface UploadRow {
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

/** A server's report as both databases' listing selects it. */
export interface ReportRow {
  server: string;
  status: string;
  message: string;
  processed: number | null;
  total: number | null;
  reported_at: number;
}

export function toUploadRecord(row: UploadRow): UploadRecord {
  return {
    id: row.id,
    server: row.server,
    fileSize: row.file_size,
    status: row.status,
    processed: row.processed,
    total: row.total,
    message: row.message,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function toReportView(row: ReportRow): ReportView {
  return {
    server: row.server,
    status: row.status,
    message: row.message,
    processed: row.processed,
    total: row.total,
    reportedAt: toIso(row.reported_at),
  };
}
