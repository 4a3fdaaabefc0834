import { toIso } from './dates.js';

export type UploadStatus = 'processing' | 'completed' | 'failed';

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
