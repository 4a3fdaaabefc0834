import { isApiError, isTransient } from '../../src/api/errors.js';
import type { CommandHandler, CommandInvocation, CommandSender } from '../../src/runtime/plugin-api.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import { isLocalId } from '../cache/local-creations.js';
import { queuePardon } from '../sync/queue-pardon.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { parseModerationArgs } from './moderation-args.js';
import { resolveAnyTarget } from './resolve-arguments.js';

type Lifted = 'ban' | 'mute';

const TEXTS = {
  ban: { none: 'commands.lift.no-ban', done: 'commands.lift.unbanned' },
  mute: { none: 'commands.lift.no-mute', done: 'commands.lift.unmuted' },
} as const;

/**
 * `/unban <player> [-s] [reason...]` and `/unmute ...`: pardons every running ban (mute) of the
 * player at the service (the pardon extension) and lifts it here at once. Unreachable: lifted
 * here, the pardon queued. A service without the pardon route (404): nothing changes, and the
 * sender is told to use the panel.
 */
export function liftCommand(deps: CommandDeps, lifted: Lifted, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => lift(deps, lifted, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function lift(deps: CommandDeps, lifted: Lifted, { sender, args }: CommandInvocation): Promise<void> {
  const parsed = parseModerationArgs(args, 'none');
  if (!parsed.ok) return; // no duration is read, so never reached
  const { player, silent, reason } = parsed.args;
  const target = (await resolveAnyTarget(deps, sender, player))?.player;
  if (!target) return;
  const render = deps.messages.render.bind(deps.messages);
  const running = deps.records.running(target.uuid, lifted, deps.clock.now());
  if (running.length === 0) {
    sender.sendMessage(render(TEXTS[lifted].none, { player: target.name }));
    return;
  }
  const outcome = await liftAll(deps, sender, running, { reason, silent });
  if (outcome === 'stopped') return;
  sender.sendMessage(
    render(outcome === 'queued' ? 'commands.lift.queued' : TEXTS[lifted].done, { player: target.name }),
  );
}

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
