import type {
  ImportLease,
  ImportTally,
  LeasedImport,
  ReportView,
  UploadRecord,
  UploadStatus,
} from '../migration-rows.js';

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

export type {
  ImportLease,
  ImportTally,
  LeasedImport,
  ReportView,
  UploadRecord,
  UploadStatus,
} from '../migration-rows.js';

/**
 * Migration uploads (one record per upload), the file of each while it is imported (in chunks),
 * the lease of its import (one instance at a time), and the progress servers report.
 */
export interface MigrationStorePort {
  startUpload(upload: NewUpload): Promise<void>;
  /** Sets status, processed and message whoever holds the import (seeds and tests; imports use advance and finish). */
  progress(id: string, status: UploadStatus, processed: number, message: string, nowMs: number): Promise<void>;
  /** The network's uploads, newest first. */
  uploads(networkId: number): Promise<UploadRecord[]>;
  /** One upload of the network, or undefined. */
  find(networkId: number, id: string): Promise<UploadRecord | undefined>;
  report(report: ProgressReport): Promise<void>;
  /** The network's newest 100 reports, newest first. */
  reports(networkId: number): Promise<ReportView[]>;
  /** Stores the `seq`th chunk (from 0) of an upload's file. */
  storeChunk(uploadId: string, seq: number, data: Buffer): Promise<void>;
  chunk(uploadId: string, seq: number): Promise<Buffer | undefined>;
  /** Deletes the stored file of an upload; returns how many chunks. */
  dropChunks(uploadId: string): Promise<number>;
  /** The whole file is stored, in `chunks` chunks. */
  markStored(id: string, chunks: number, message: string, nowMs: number): Promise<void>;
  /** Extends the lease; false when `lease.owner` no longer holds the import (cancelled, finished or taken over). */
  renewLease(id: string, lease: ImportLease): Promise<boolean>;
  /**
   * Records a committed batch (in the batch's transaction) and extends the lease; false, with
   * nothing written, when `lease.owner` no longer holds the import: the batch must roll back.
   */
  advance(id: string, lease: ImportLease, progress: ImportProgress): Promise<boolean>;
  /** Ends the import as `status` and lets go of it; false when `owner` no longer holds it. */
  finish(
    id: string,
    owner: string,
    status: Exclude<UploadStatus, 'processing'>,
    progress: ImportProgress,
  ): Promise<boolean>;
  /** Lets go of an import still running (the service stops): any instance may take it over at once. */
  release(id: string, owner: string): Promise<boolean>;
  /**
   * Takes the running import whose lease ran out longest ago, if any, for `lease.owner` until
   * `lease.expiresAtMs`. Instances asking at once never take the same one.
   */
  claimExpired(lease: ImportLease, nowMs: number): Promise<LeasedImport | undefined>;
  /** Marks a running import failed with `message` (an operator cancelled it); false when it was not running. */
  cancel(networkId: number, id: string, message: string, nowMs: number): Promise<boolean>;
}
