import { errorMessage } from '../../src/errors/error-message.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { ReloadOutcome } from '../config/reload-settings.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatAgo } from './format.js';
import { describeExtensions, describeService } from './service-state.js';
import { logForOwner } from './staff-log.js';
import { describeEvasion, describeSources } from './sync-sources.js';

/** `/bailiff status`: service reachability, last sync, stream state, cache size, outbox counts. */
export function showStatus(deps: CommandDeps, sender: CommandSender): void {
  const render = deps.messages.render.bind(deps.messages);
  const status = deps.status();
  const lastSync =
    status.lastSyncAt === undefined ? render('commands.bailiff.never') : formatAgo(status.lastSyncAt, deps.clock.now());
  sender.sendMessage(render('commands.bailiff.status-header'));
  sender.sendMessage(render('commands.bailiff.status-service', { state: describeService(deps, status) }));
  const extensions = describeExtensions(deps, status);
  if (extensions !== undefined) sender.sendMessage(extensions);
  // While the stream is connected nothing is polled: the time of its last update is not staleness.
  const syncKey =
    status.streamState === 'connected' ? 'commands.bailiff.status-sync-live' : 'commands.bailiff.status-sync';
  sender.sendMessage(render(syncKey, { lastSync, stream: status.streamState }));
  sender.sendMessage(render('commands.bailiff.status-cache', { count: status.cachedPunishments }));
  sender.sendMessage(
    render('commands.bailiff.status-outbox', { pending: status.outboxPending, dead: status.outboxDead }),
  );
  for (const line of describeSources(deps, status)) sender.sendMessage(line);
  for (const line of describeEvasion(deps, status)) sender.sendMessage(line);
}

/** `/bailiff sync`: one poll of `recent` now. */
export async function syncNow(deps: CommandDeps, sender: CommandSender): Promise<void> {
  const render = deps.messages.render.bind(deps.messages);
  sender.sendMessage(render('commands.bailiff.sync-started'));
  let applied: number;
  try {
    ({ applied } = await deps.syncNow());
  } catch (error) {
    return reportFailure(sender, deps, error, 'sync');
  }
  sender.sendMessage(render('commands.bailiff.sync-done', { applied }));
}

/**
 * `/bailiff reload`: config.yml and messages.yml. A validation error reaches the sender one
 * line per problem (file, then key, expected, received); settings that need a restart are named.
 */
export async function reload(deps: CommandDeps, sender: CommandSender): Promise<void> {
  let outcome: ReloadOutcome;
  try {
    outcome = await deps.reload();
  } catch (error) {
    const [first = '', ...details] = errorMessage(error).split('\n');
    sender.sendMessage(deps.messages.render('commands.bailiff.reload-failed', { message: first }));
    for (const detail of details) {
      sender.sendMessage(deps.messages.render('commands.bailiff.reload-issue', { issue: detail.trim() }));
    }
    logForOwner(deps.logger, sender, 'warn', 'reload failed', { message: [first, ...details].join('\n') });
    return;
  }
  // Rendered after the reload so the sender sees the new messages.yml at once.
  sender.sendMessage(deps.messages.render('commands.bailiff.reloaded'));
  const restartRequired = outcome.restartRequired ?? [];
  if (restartRequired.length > 0) {
    sender.sendMessage(
      deps.messages.render('commands.bailiff.reload-restart-required', { keys: restartRequired.join(', ') }),
    );
  }
}
