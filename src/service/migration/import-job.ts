import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { errorMessage } from '../../errors/error-message.js';
import type { ServiceContext } from '../context.js';
import { guardedPromise } from '../guard.js';
import { emptyTally, type ImportTally, importPlayerBatch } from './import-players.js';

/** Players imported per transaction; also how often progress is recorded. */
const BATCH_SIZE = 500;

export interface ImportRequest {
  uploadId: string;
  networkId: number;
  filePath: string;
}

function describe(tally: ImportTally): string {
  return `imported ${tally.players} players and ${tally.punishments} punishments (${tally.duplicates} already known, ${tally.invalid} invalid records skipped)`;
}

/** Background imports of uploaded migration files; the file is deleted when its import ends. */
export class ImportJobs {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(private readonly context: ServiceContext) {}

  start(request: ImportRequest): void {
    const abort = new AbortController();
    const done = guardedPromise(
      this.context.logger,
      'migration import',
      { uploadId: request.uploadId },
      this.run(request, abort.signal),
    ).finally(() => this.running.delete(request.uploadId));
    this.running.set(request.uploadId, { abort, done });
  }

  /** Resolves when no import is running (tests and shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()].map((job) => job.done));
  }

  async close(): Promise<void> {
    for (const job of this.running.values()) job.abort.abort();
    await this.idle();
  }

  private async run({ uploadId, networkId, filePath }: ImportRequest, signal: AbortSignal): Promise<void> {
    const { stores, clock, logger } = this.context;
    const tally = emptyTally();
    let batch: unknown[] = [];
    let processed = 0;
    const flush = async () => {
      const full = batch;
      batch = [];
      await importPlayerBatch(this.context, networkId, full, tally);
      processed += full.length;
      await stores.migrations.progress(uploadId, 'processing', processed, describe(tally), clock.now());
    };
    // The stream waits for each batch to be stored before it reads on.
    const flushThen = (next: (error?: Error | null) => void) =>
      flush().then(
        () => next(),
        (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
      );
    const sink = new Writable({
      objectMode: true,
      write(item: { value: unknown }, _encoding, next) {
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
        createReadStream(filePath),
        parser.asStream(),
        pick.asStream({ filter: 'players' }),
        streamArray.asStream(),
        sink,
        { signal },
      );
      await this.context.storage.refreshStatistics();
      await stores.migrations.progress(uploadId, 'completed', processed, describe(tally), clock.now());
    } catch (error) {
      const reason = signal.aborted ? 'service stopped' : errorMessage(error);
      await stores.migrations.progress(uploadId, 'failed', processed, `failed: ${reason}`, clock.now());
      logger.warn('migration import failed', { uploadId, reason });
    } finally {
      await rm(filePath, { force: true });
    }
  }
}
