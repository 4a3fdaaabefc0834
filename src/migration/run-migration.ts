import { rm } from 'node:fs/promises';
import { buildMigrationFile } from './build-file.js';
import { errorMessage, isMigrationError, MigrationError } from './errors.js';
import { ProgressReporter } from './progress-reporter.js';
import { type ResolvedMigrationOptions, resolveMigrationOptions } from './resolve-options.js';
import { openSource } from './sources/index.js';
import type { MigrationOptions, MigrationSummary } from './types.js';
import { uploadWithRetry } from './upload.js';
import { waitOn } from './wait.js';

const count = (value: number) => value.toLocaleString('en-US');

async function migrate(
  run: ResolvedMigrationOptions,
  reporter: ProgressReporter | undefined,
): Promise<MigrationSummary> {
  const source = await openSource(run, () => run.clock.now());
  const building = (processed: number, total: number) =>
    `Writing the migration file: ${count(processed)} of ${count(total)} entries`;
  reporter?.report('building_json', building(0, source.total), { processed: 0, total: source.total });
  run.emit({ phase: 'building_json', processed: 0, total: source.total });
  const built = await buildMigrationFile(source, run.outFile, {
    onLocalProgress: (progress) => run.emit({ phase: 'building_json', ...progress }),
    onServiceProgress: ({ processed, total }) =>
      reporter?.report('building_json', building(processed, total), { processed, total }, true),
    onPlayer: run.playerExported,
  });
  const total = Math.max(source.total, built.entriesRead);
  run.emit({ phase: 'building_json', processed: built.entriesRead, total });
  reporter?.report('building_json', building(built.entriesRead, total), { processed: built.entriesRead, total });

  const summary: MigrationSummary = {
    players: built.players,
    punishments: built.punishments,
    entriesRead: built.entriesRead,
    skipped: built.skipped.list(),
    byKind: built.byKind,
    fileSize: built.fileSize,
    filePath: run.outFile,
    dryRun: run.dryRun,
  };
  if (run.dryRun || !reporter || !run.client) return summary;

  reporter.report('uploading_json', `Uploading the migration file (${count(built.fileSize)} bytes)`);
  summary.serviceAnswer = await uploadWithRetry({
    client: run.client,
    filePath: run.outFile,
    fileSize: built.fileSize,
    timers: run.timers,
    random: run.random,
    maxAttempts: run.maxUploadAttempts,
    timeoutMs: run.uploadTimeoutMs,
    onAttempt: (attempt) => run.emit({ phase: 'uploading_json', fileSize: built.fileSize, attempt }),
    onRetry: (attempt, delayMs, reason) => run.emit({ phase: 'retrying_upload', attempt, delayMs, reason }),
  });
  if (run.removeFileAfterUpload) {
    await rm(run.outFile, { force: true });
    summary.fileRemoved = true;
  }
  const skippedCount = summary.skipped.reduce((sum, entry) => sum + entry.count, 0);
  reporter.report(
    'completed',
    `Uploaded ${count(summary.players)} players and ${count(summary.punishments)} punishments (${count(skippedCount)} entries skipped); the service said: ${summary.serviceAnswer.message}`,
    { processed: built.entriesRead, total },
  );
  return summary;
}

/**
 * Exports punishments from another moderation system, writes the migration file by streaming
 * and uploads it, reporting `migration/progress` through the outbox as it goes.
 *
 * Stable entry point of `bailiff migrate` and of the in-game `/bailiff migrate`. It neither
 * starts nor stops the outbox: the caller owns it (the plugin's is already running). Before
 * resolving or rejecting it waits up to `drainTimeoutMs` for its progress calls to be delivered;
 * those still pending stay durable in the outbox.
 *
 * @throws MigrationError with a message for the server owner (`kind` says which step failed).
 */
export async function runMigration(options: MigrationOptions): Promise<MigrationSummary> {
  const run = resolveMigrationOptions(options);
  const reporter =
    run.dryRun || !run.client
      ? undefined
      : new ProgressReporter({ runId: run.runId, outbox: run.outbox, client: run.client, logger: run.logger });
  const settle = async () => {
    if (!reporter) return;
    const delivered = await reporter.settle(run.drainTimeoutMs, waitOn(run.timers));
    if (!delivered) {
      run.logger.warn('migration progress not all delivered yet; the outbox keeps them', {
        undelivered: reporter.undeliveredCount,
      });
    }
  };
  try {
    const summary = await migrate(run, reporter);
    run.emit({ phase: 'completed', summary });
    await settle();
    return summary;
  } catch (error) {
    const failure = isMigrationError(error)
      ? error
      : new MigrationError('write', `The migration stopped: ${errorMessage(error)}`, { cause: error });
    reporter?.report('failed', failure.message);
    run.emit({ phase: 'failed', message: failure.message });
    await settle();
    throw failure;
  } finally {
    reporter?.close();
  }
}
