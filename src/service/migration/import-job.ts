import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { errorMessage } from '../../errors/error-message.js';
import { systemTimers, type TimerHandle, type Timers } from '../../ports/timers.js';
import type { ServiceContext } from '../context.js';
import { guardedPromise } from '../guard.js';
import { HttpError } from '../http/errors.js';
import { emptyTally, type LeasedImport } from '../store/migration-rows.js';
import type { NewUpload } from '../store/ports/migrations.js';
import { ImportHold } from './import-hold.js';
import { failImport, runImport } from './import-run.js';
import { storeUploadedFile } from './stored-file.js';

/** How long an instance holds an import without renewing it, by default. */
export const DEFAULT_MIGRATION_LEASE_MS = 30_000;
/** What an upload whose file never reached the database fails with when another instance finds it. */
export const NOT_STORED_REASON =
  'failed: the service instance that received this upload stopped before its file was stored; upload it again';

export interface ImportJobSettings {
  /** How long an instance holds an import without renewing it; another takes it over after. */
  leaseMs: number;
  timers: Timers;
}

/** An upload about to be imported: its record, without the parts {@link ImportJobs.accept} fills in. */
export type UploadToImport = Omit<NewUpload, 'fileSize' | 'nowMs' | 'message' | 'lease'>;

const noop = () => {};

/**
 * Background imports of uploaded migration files, on any instance. The file is kept in the
 * database while it is imported; the import is leased to one instance, which renews the lease as
 * it goes and commits each batch with its progress, in one transaction, only while it still holds
 * it. Every instance looks for imports whose lease ran out (their instance died) and goes on from
 * the last committed batch, so nothing is imported twice. An operator may cancel an import.
 */
export class ImportJobs {
  /** This instance; each hold on an import is named after it (`<instance>.<n>`). */
  private readonly instance = randomBytes(8).toString('hex');
  private holds = 0;
  private readonly running = new Map<string, { hold: ImportHold; done: Promise<void> }>();
  private scanTimer: TimerHandle | undefined;
  private scanning: Promise<void> | undefined;
  private isClosed = false;

  constructor(
    private readonly context: ServiceContext,
    private readonly settings: ImportJobSettings = { leaseMs: DEFAULT_MIGRATION_LEASE_MS, timers: systemTimers },
  ) {}

  /** Looks for imports left by an instance that stopped: at once, then every half lease. */
  start(): void {
    if (this.isClosed || this.scanTimer !== undefined) return;
    const scan = () => {
      this.scanTimer = undefined;
      if (this.isClosed) return;
      this.scanning = this.takeOverExpired().finally(() => {
        this.scanning = undefined;
        if (!this.isClosed) this.scanTimer = this.settings.timers.setTimeout(scan, this.settings.leaseMs / 2);
      });
    };
    scan();
  }

  /**
   * Records the upload, stores its file in the database (and deletes it from `file.path`), then
   * imports it in the background. Resolves once the file is stored: from then on the import
   * finishes whatever happens to this instance.
   */
  async accept(upload: UploadToImport, file: { path: string; size: number }): Promise<void> {
    const { stores, clock } = this.context;
    try {
      const owner = this.newOwner();
      await stores.migrations.startUpload({
        ...upload,
        fileSize: file.size,
        nowMs: clock.now(),
        message: 'storing the file',
        lease: { owner, expiresAtMs: clock.now() + this.settings.leaseMs },
      });
      const hold = this.hold(upload.id, owner);
      const storing = this.stored(hold, file.path);
      // Held like a running import meanwhile: a cancel or the service stopping ends it.
      this.running.set(upload.id, { hold, done: storing.then(noop, noop) });
      const chunks = await storing.catch((error: unknown) => {
        if (this.running.get(upload.id)?.hold === hold) this.running.delete(upload.id);
        throw error;
      });
      this.run(hold, { ...upload, processed: 0, tally: emptyTally(), storedChunks: chunks });
    } finally {
      await rm(file.path, { force: true });
    }
  }

  /** Copies the received file into the database; on failure the upload is failed (when it still can be). */
  private async stored(hold: ImportHold, path: string): Promise<number> {
    const { stores, clock } = this.context;
    try {
      const chunks = await storeUploadedFile(stores.migrations, hold.uploadId, path, hold.signal);
      await stores.migrations.markStored(hold.uploadId, chunks, 'queued', clock.now());
      return chunks;
    } catch (error) {
      hold.stopRenewing();
      // Best effort: with the database gone, another instance fails it once the lease runs out.
      const job = { id: hold.uploadId, processed: 0, tally: emptyTally() };
      await failImport(this.context, job, hold.owner, `failed: ${errorMessage(error)}`).catch(noop);
      if (hold.ended === 'lost') {
        // Cancelled (or failed by an instance that found its lease run out): a chunk written since is nobody's.
        await stores.migrations.dropChunks(hold.uploadId).catch(noop);
        throw new HttpError(409, 'the upload was cancelled while its file was being stored');
      }
      throw error;
    }
  }

  /**
   * Stops a running import for good: it is marked failed with `cancelled by <actor>` and its file
   * deleted; what it imported so far stays. Another instance running it stops at its next batch.
   */
  async cancel(networkId: number, uploadId: string, actor: string): Promise<'cancelled' | 'not-found' | 'not-running'> {
    const { stores, clock } = this.context;
    if (!(await stores.migrations.find(networkId, uploadId))) return 'not-found';
    const message = `cancelled by ${actor}; what was imported before stays`;
    const isCancelled = await this.context.storage.transaction(async (stores) => {
      if (!(await stores.migrations.cancel(networkId, uploadId, message, clock.now()))) return false;
      await stores.migrations.dropChunks(uploadId);
      return true;
    });
    if (!isCancelled) return 'not-running';
    this.running.get(uploadId)?.hold.end('lost');
    return 'cancelled';
  }

  /** Resolves when no import is running here (tests and shutdown). */
  async idle(): Promise<void> {
    await this.scanning;
    await Promise.all([...this.running.values()].map((job) => job.done));
  }

  /** Stops every import here and lets go of it, so another instance (or the next start) goes on at once. */
  async close(): Promise<void> {
    this.isClosed = true;
    if (this.scanTimer !== undefined) this.settings.timers.clearTimeout(this.scanTimer);
    for (const job of this.running.values()) job.hold.end('closing');
    await this.idle();
  }

  /**
   * A name for one hold on one import. Per hold, not per instance: an instance whose own lease ran
   * out (its loop stalled) and that takes the import again must stop the run that lost it.
   */
  private newOwner(): string {
    this.holds += 1;
    return `${this.instance}.${this.holds}`;
  }

  private hold(uploadId: string, owner: string): ImportHold {
    const { stores, clock, logger } = this.context;
    const { leaseMs, timers } = this.settings;
    return new ImportHold(uploadId, { migrations: stores.migrations, owner, leaseMs, clock, timers, logger });
  }

  private run(hold: ImportHold, job: Omit<LeasedImport, 'total'>): void {
    const done = guardedPromise(
      this.context.logger,
      'migration import',
      { uploadId: job.id },
      runImport(this.context, hold, job),
    ).finally(() => {
      hold.stopRenewing();
      if (this.running.get(job.id)?.hold === hold) this.running.delete(job.id);
    });
    const previous = this.running.get(job.id);
    if (previous && previous.hold !== hold) previous.hold.end('lost');
    this.running.set(job.id, { hold, done });
  }

  /** Takes over, one after the other, every import whose lease ran out. */
  private async takeOverExpired(): Promise<void> {
    const { stores, clock, logger } = this.context;
    try {
      for (;;) {
        if (this.isClosed) return;
        const nowMs = clock.now();
        const owner = this.newOwner();
        const job = await stores.migrations.claimExpired({ owner, expiresAtMs: nowMs + this.settings.leaseMs }, nowMs);
        if (!job) return;
        logger.info('migration import taken over from a stopped instance', {
          uploadId: job.id,
          processed: job.processed,
          total: job.total,
        });
        if (job.storedChunks === null) {
          await failImport(this.context, job, owner, NOT_STORED_REASON);
          continue;
        }
        this.run(this.hold(job.id, owner), job);
      }
    } catch (error) {
      logger.warn('could not look for migration imports to take over', { problem: errorMessage(error) });
    }
  }
}
