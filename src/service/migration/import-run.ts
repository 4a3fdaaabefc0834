import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { errorMessage } from '../../errors/error-message.js';
import type { ServiceContext } from '../context.js';
import { databaseUnavailableOf } from '../http/database-outage.js';
import type { ImportTally, LeasedImport } from '../store/migration-rows.js';
import type { ImportHold } from './import-hold.js';
import { importPlayerBatch } from './import-players.js';
import { storedFileChunks } from './stored-file.js';

/** Players imported per transaction; also how often progress is recorded. */
const BATCH_SIZE = 500;

/** Thrown inside a batch's transaction when this run no longer holds the import: the batch rolls back. */
class LeaseLostError extends Error {}

function describe(tally: ImportTally): string {
  return `imported ${tally.players} players and ${tally.punishments} punishments (${tally.duplicates} already known, ${tally.invalid} invalid records skipped)`;
}

/**
 * One run of an import under `hold`: reads the stored file from the database, skips the players
 * committed before (by this run's instance or the one it took over from), and commits each batch
 * of 500 players with its progress in one transaction, only while the hold still has the lease.
 * Ends with the upload completed, failed with the reason, released (the service stops), or left
 * for the next holder (cancelled, taken over, the database gone).
 */
export async function runImport(
  context: ServiceContext,
  hold: ImportHold,
  job: Omit<LeasedImport, 'total'>,
): Promise<void> {
  const { storage, stores, clock, logger } = context;
  let tally = job.tally;
  let processed = job.processed;
  let batch: unknown[] = [];
  const flush = async () => {
    const full = batch;
    batch = [];
    const counted = await storage.transaction(async (stores) => {
      const counted = await importPlayerBatch(stores, job.networkId, full, tally);
      const progress = { processed: processed + full.length, tally: counted, message: describe(counted) };
      if (!(await stores.migrations.advance(job.id, hold.lease(), { ...progress, nowMs: clock.now() }))) {
        throw new LeaseLostError();
      }
      return counted;
    });
    processed += full.length;
    tally = counted;
    // On SQLite a batch never waits for I/O: let the requests that arrived meanwhile be answered.
    await setImmediate();
  };
  // The stream waits for each batch to be stored before it reads on.
  const flushThen = (next: (error?: Error | null) => void) =>
    flush().then(
      () => next(),
      (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
    );
  const sink = new Writable({
    objectMode: true,
    write(item: { key: number; value: unknown }, _encoding, next) {
      // Players a batch committed before (by this instance or the one it took over from) are skipped.
      if (item.key < job.processed) return next();
      batch.push(item.value);
      if (batch.length >= BATCH_SIZE) flushThen(next);
      else next();
    },
    final(next) {
      if (batch.length > 0) flushThen(next);
      else next();
    },
  });
  try {
    await pipeline(
      Readable.from(storedFileChunks(stores.migrations, job.id, job.storedChunks!)),
      parser.asStream(),
      pick.asStream({ filter: 'players' }),
      streamArray.asStream(),
      sink,
      { signal: hold.signal },
    );
    const progress = { processed, tally, message: describe(tally), nowMs: clock.now() };
    // Its file goes with it: whoever reads the upload completed finds nothing of it left.
    const isFinished = await storage.transaction(async (stores) => {
      if (!(await stores.migrations.finish(job.id, hold.owner, 'completed', progress))) return false;
      await stores.migrations.dropChunks(job.id);
      return true;
    });
    if (!isFinished) throw new LeaseLostError();
  } catch (error) {
    if (error instanceof LeaseLostError) hold.end('lost');
    if (hold.ended === 'lost') {
      logger.info('migration import stopped: it was cancelled or another instance took it over', {
        uploadId: job.id,
      });
    } else if (hold.ended === 'closing') {
      await stores.migrations.release(job.id, hold.owner).catch(() => {});
    } else if (databaseUnavailableOf(error)) {
      // Nothing can be recorded now: the lease runs out and an instance (this one too) goes on from the last batch.
      hold.stopRenewing();
      logger.warn('migration import paused: the database is unavailable; it resumes once its lease runs out', {
        uploadId: job.id,
        processed,
      });
    } else {
      await failImport(context, { id: job.id, processed, tally }, hold.owner, `failed: ${errorMessage(error)}`).catch(
        (problem: unknown) =>
          logger.warn('migration import failed, and the failure could not be recorded', {
            uploadId: job.id,
            reason: errorMessage(error),
            problem: errorMessage(problem),
          }),
      );
    }
    return;
  }
  hold.stopRenewing();
  // The planner learns of the new rows; the import is complete whatever happens here.
  await storage.refreshStatistics().catch((error: unknown) =>
    logger.warn('migration import completed, but the statistics could not be refreshed', {
      uploadId: job.id,
      problem: errorMessage(error),
    }),
  );
}

/** Ends an import `owner` holds as failed with `message`, and deletes its file; nothing when it holds it no longer. */
export async function failImport(
  context: ServiceContext,
  job: Pick<LeasedImport, 'id' | 'processed' | 'tally'>,
  owner: string,
  message: string,
): Promise<void> {
  const { storage, clock, logger } = context;
  const progress = { processed: job.processed, tally: job.tally, message, nowMs: clock.now() };
  const isFailed = await storage.transaction(async (stores) => {
    if (!(await stores.migrations.finish(job.id, owner, 'failed', progress))) return false;
    await stores.migrations.dropChunks(job.id);
    return true;
  });
  if (isFailed) logger.warn('migration import failed', { uploadId: job.id, reason: message });
}
