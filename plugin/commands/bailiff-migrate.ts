import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../src/errors/error-message.js';
import {
  activePunishmentsOf,
  describeProgressEvent,
  type MigrationProgressEvent,
  type MigrationSummary,
  runMigration,
  SERVER_FOLDER_SOURCES,
  type ServerFolderSourceKind,
  sourceDirFor,
} from '../../src/migration/index.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { CommandDeps } from './deps.js';
import { logForOwner } from './staff-log.js';

/** The in-game command reads the server's own folder: vanilla or EssentialsX. */
export const MIGRATION_SOURCES = SERVER_FOLDER_SOURCES;
export type MigrationSource = ServerFolderSourceKind;

const FILE_PREFIX = 'bailiff-migration-';

/**
 * Creates the plugin's migrations folder and removes what an earlier run stopped by a crash left
 * there (only one in-game migration runs at a time, so none of them is in use).
 */
async function prepareFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const name of await readdir(folder)) {
    if (name.startsWith(FILE_PREFIX)) await rm(join(folder, name), { force: true });
  }
}

/** Building progress is told in chat at these steps (percent), not for every entry. */
const CHAT_STEP_PERCENT = 25;

/**
 * `/bailiff migrate <vanilla|essentials>`: exports the server folder's bans (vanilla
 * `banned-players.json`, or `plugins/Essentials/userdata`) and uploads them, telling the sender
 * how it goes. One migration at a time per plugin.
 */
export function migrationSubcommand(deps: CommandDeps) {
  let running = false;
  return async (sender: CommandSender, source: MigrationSource): Promise<void> => {
    const render = deps.messages.render.bind(deps.messages);
    if (running) {
      sender.sendMessage(render('commands.migrate.already-running'));
      return;
    }
    running = true;
    const dir = sourceDirFor(source, deps.serverFolder);
    const outFile = join(deps.migrationsFolder, `${FILE_PREFIX}${source}-${deps.ids()}.json`);
    sender.sendMessage(render('commands.migrate.started', { source, dir }));
    try {
      await prepareFolder(deps.migrationsFolder);
      const summary = await runMigration({
        from: source,
        dir,
        outFile,
        client: deps.client,
        outbox: deps.outbox,
        onProgress: progressToChat(deps, sender),
        // Enforced here at once, before the service has processed the upload.
        onPlayerExported: (player) => {
          for (const punishment of activePunishmentsOf(player)) deps.applyCreated(punishment);
        },
        clock: deps.clock,
        ids: deps.ids,
        logger: deps.logger,
      });
      tellSummary(deps, sender, summary);
    } catch (error) {
      // MigrationError messages are written for the server owner and never carry the key.
      sender.sendMessage(render('commands.migrate.failed', { message: errorMessage(error) }));
      logForOwner(deps.logger, sender, 'warn', 'in-game migration failed', { source, error: errorMessage(error) });
    } finally {
      running = false;
      // The file only carried the upload; `bailiff migrate --dry-run` is the way to keep one.
      await rm(outFile, { force: true }).catch(() => {});
    }
  };
}

function progressToChat(deps: CommandDeps, sender: CommandSender): (event: MigrationProgressEvent) => void {
  let lastStep = -1;
  return (event) => {
    if (event.phase === 'completed' || event.phase === 'failed') return; // told once the run returns
    if (event.phase === 'building_json') {
      const percent = event.total === 0 ? 100 : Math.floor((event.processed / event.total) * 100);
      const step = Math.floor(percent / CHAT_STEP_PERCENT);
      if (step <= lastStep) return;
      lastStep = step;
    }
    sender.sendMessage(deps.messages.render('commands.migrate.progress', { progress: describeProgressEvent(event) }));
  };
}

function tellSummary(deps: CommandDeps, sender: CommandSender, summary: MigrationSummary): void {
  const render = deps.messages.render.bind(deps.messages);
  const skipped = summary.skipped.reduce((sum, entry) => sum + entry.count, 0);
  sender.sendMessage(
    render('commands.migrate.done', {
      players: summary.players,
      punishments: summary.punishments,
      skipped,
      message: summary.serviceAnswer?.message ?? '',
    }),
  );
  for (const entry of summary.skipped) {
    sender.sendMessage(render('commands.migrate.skipped', { count: entry.count, reason: entry.reason }));
  }
}
