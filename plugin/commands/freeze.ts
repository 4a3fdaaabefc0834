import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { LocalOnlyCause } from '../freeze/freezes.js';
import { reasonText } from '../messages/reason.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { askForSender } from './player-call.js';
import { resolveAnyTarget } from './resolve-arguments.js';

/** Longest reason the service keeps. */
const MAX_REASON_LENGTH = 256;

/** Why a change holds on this server only, for the staff member (`commands.freeze.local.*`). */
export function localOnlyText(deps: CommandDeps, localOnly: { cause: LocalOnlyCause; detail?: string }): string {
  return deps.messages.render(`commands.freeze.local.${localOnly.cause}`, { message: localOnly.detail ?? '' });
}

/**
 * `/freeze <player> [reason...]`: holds the player where they stand until unfrozen (see
 * plugin/freeze/freezes.ts), on every server of the network when the service keeps freezes.
 */
export function freezeCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => freeze(deps, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function freeze(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [playerArg, ...reasonWords] = args;
  if (playerArg === undefined) throw new CommandUsageError();
  const reason = reasonWords.join(' ').trim();
  const render = deps.messages.render.bind(deps.messages);
  if (reason.length > MAX_REASON_LENGTH) {
    sender.sendMessage(render('commands.freeze.reason-too-long', { max: MAX_REASON_LENGTH }));
    return;
  }
  const target = (await resolveAnyTarget(deps, sender, playerArg))?.player;
  if (!target) return;
  if (deps.isExempt(target)) {
    sender.sendMessage(render('commands.exempt', { player: target.name }));
    return;
  }
  const outcome = await askForSender(deps, sender, `freeze ${target.uuid} ${deps.ids()}`, (options) =>
    deps.freezes.freeze(target, reason, sender.name, options),
  );
  if (!outcome) return;
  const shown = { player: outcome.entry.name, reason: reasonText(deps.messages, outcome.entry.reason) };
  if (outcome.kind === 'already') {
    sender.sendMessage(render('commands.freeze.already', { ...shown, issuer: outcome.entry.issuer }));
  } else if (outcome.localOnly) {
    sender.sendMessage(render('commands.freeze.done-local', { ...shown, why: localOnlyText(deps, outcome.localOnly) }));
  } else {
    sender.sendMessage(render('commands.freeze.done', shown));
  }
}
