import { isApiError, isTransient } from '../../src/api/errors.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import { isLocalId } from '../cache/local-creations.js';
import { queuePardon } from '../sync/queue-pardon.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';

/**
 * Pardons each punishment at the service and lifts it here at once; a pardon the service cannot
 * take now is queued. `stopped`: the service refused (the sender was told why) and what was left
 * stays as it was.
 */
export async function liftAll(
  deps: CommandDeps,
  sender: CommandSender,
  punishments: readonly CachedPunishment[],
  options: { reason: string; silent: boolean },
): Promise<'lifted' | 'queued' | 'stopped'> {
  let queued = false;
  for (const punishment of punishments) {
    const request = { punishmentId: punishment.id, issuerName: sender.name, ...options };
    const outcome = await pardonAtService(deps, sender, punishment, request);
    if (outcome === 'stop') return 'stopped';
    if (outcome === 'queued') queued = true;
    deps.liftLocally(request);
  }
  return queued ? 'queued' : 'lifted';
}

async function pardonAtService(
  deps: CommandDeps,
  sender: CommandSender,
  punishment: CachedPunishment,
  request: { issuerName: string; reason: string },
): Promise<'sent' | 'queued' | 'stop'> {
  // The service has not created it yet: the pardon follows its creation (sync/adopt-local.ts).
  if (isLocalId(punishment.id)) return 'sent';
  // Known not to have the pardon route (a remembered 404): no call, the panel pardons.
  if (deps.client.extensions.isMissing('pardonPunishment', deps.clock.now())) {
    sender.sendMessage(deps.messages.render('commands.lift.unsupported'));
    return 'stop';
  }
  const body = { issuerName: request.issuerName, ...(request.reason === '' ? {} : { reason: request.reason }) };
  try {
    await deps.client.pardonPunishment({ punishmentId: punishment.id, body });
    return 'sent';
  } catch (error) {
    if (isTransient(error)) {
      queuePardon(deps.outbox, punishment, request);
      return 'queued';
    }
    if (isApiError(error) && error.kind === 'http' && error.status === 404) {
      sender.sendMessage(deps.messages.render('commands.lift.unsupported'));
      return 'stop';
    }
    reportFailure(sender, deps, error, 'pardon');
    return 'stop';
  }
}
