import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModerationApi } from '../../api/moderation-api.js';
import { resolveApiSettings } from '../../migration/cli/api-settings.js';
import { formatSummary } from '../../migration/cli/format-summary.js';
import {
  DEFAULT_PLUGIN_FOLDER,
  type ExportArgs,
  MIGRATE_USAGE,
  type MigrateArgs,
  parseMigrateArgs,
} from '../../migration/cli/parse-args.js';
import { createProgressDisplay } from '../../migration/cli/progress-display.js';
import { isMigrationError } from '../../migration/errors.js';
import { runMigration } from '../../migration/run-migration.js';
import type { MigrationOptions, MigrationSummary } from '../../migration/types.js';
import type { Logger } from '../../ports/logger.js';
import type { Timers } from '../../ports/timers.js';
import { escapeControlCharacters } from '../../runtime/log-escape.js';
import { type CliCommand, type CliContext, UsageError } from '../command.js';

/** Referenced timers: the process must stay alive while it waits for the outbox to drain. */
const processTimers: Timers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

function stderrLogger(stderr: NodeJS.WritableStream): Logger {
  const write = (level: string) => (message: string) =>
    stderr.write(`bailiff migrate: ${level}: ${escapeControlCharacters(message)}\n`);
  return { debug: () => {}, info: () => {}, warn: write('warning'), error: write('error') };
}

async function migrateWithService(
  args: MigrateArgs,
  context: CliContext,
  base: MigrationOptions,
): Promise<MigrationSummary> {
  const pluginFolder = join(context.cwd, DEFAULT_PLUGIN_FOLDER);
  const api = await resolveApiSettings(args, context.env, pluginFolder);
  // Loaded here so that a dry run needs neither the client, the database nor the outbox.
  const [{ createModerationClient }, { ClientOptionsError }, { openDb }, { createOutbox }, { cacheSeeder }] =
    await Promise.all([
      import('../../api/client.js'),
      import('../../api/options.js'),
      import('../../db/open-db.js'),
      import('../../outbox/index.js'),
      import('../../../plugin/cache/seed-from-migration.js'),
    ]);
  let client: ModerationApi;
  try {
    client = createModerationClient({ baseUrl: api.baseUrl, apiKey: api.apiKey, platform: api.platform });
  } catch (error) {
    // A malformed --api-url (or config value) is a usage problem; the message never holds the key.
    if (error instanceof ClientOptionsError) throw new UsageError(error.message);
    throw error;
  }
  mkdirSync(dirname(args.dbPath), { recursive: true });
  const db = openDb(args.dbPath);
  const outbox = createOutbox({ db, client });
  outbox.start();
  try {
    // The server whose database this is enforces the exported bans and mutes from its next start.
    const seed = cacheSeeder(db, Date.now);
    return await runMigration({ ...base, client, outbox, onPlayerExported: (player) => seed(player) });
  } finally {
    await outbox.stop();
    db.close();
  }
}

/** `bailiff migrate --to json`: a network's punishments to a migration file. */
async function exportToJson(exportTo: ExportArgs, context: CliContext): Promise<number> {
  const { exportNetwork } = await import('../../migration/export/export-network.js');
  try {
    const summary = await exportNetwork(exportTo);
    const kinds = Object.entries(summary.byKind)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => `    ${kind}: ${n.toLocaleString('en-US')}`);
    context.stdout.write(
      [
        `Exported network ${exportTo.network}`,
        `  punishments:  ${summary.punishments.toLocaleString('en-US')}`,
        ...kinds,
        `  file:         ${summary.filePath} (${summary.fileSize.toLocaleString('en-US')} bytes)`,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (!isMigrationError(error)) throw error;
    context.stderr.write(`bailiff migrate: ${error.message}\n`);
    return 1;
  }
}

/** `bailiff migrate --from vanilla|essentials --dir PATH | --from litebans|... --database-url URL [--dry-run] ...` */
export const command: CliCommand = async (context) => {
  const args = parseMigrateArgs(context.argv, context.cwd);
  if (args.help) {
    context.stdout.write(`${MIGRATE_USAGE}\n`);
    return 0;
  }
  if (args.exportTo) return exportToJson(args.exportTo, context);
  const display = createProgressDisplay(context.stdout);
  const base: MigrationOptions = {
    from: args.from,
    dir: args.dir,
    databaseUrl: args.databaseUrl,
    tablePrefix: args.tablePrefix,
    outFile: args.outFile,
    dryRun: args.dryRun,
    onProgress: (event) => display.onProgress(event),
    timers: processTimers,
    logger: stderrLogger(context.stderr),
  };
  try {
    const summary = args.dryRun ? await runMigration(base) : await migrateWithService(args, context, base);
    display.stop();
    context.stdout.write(formatSummary(summary));
    return 0;
  } catch (error) {
    display.stop();
    if (!isMigrationError(error)) throw error;
    context.stderr.write(`bailiff migrate: ${error.message}\n`);
    return 1;
  }
};
