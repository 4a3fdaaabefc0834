import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { parseModerationArgs } from './moderation-args.js';
import { liftAll } from './pardon.js';
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
