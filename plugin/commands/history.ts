import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { PERMANENT_MS } from '../cache/cached-punishment.js';
import { typeTitle } from '../config/ordinal-defaults.js';
import { titleOf } from '../kinds/warning-status.js';
import { formatDuration } from '../messages/duration.js';
import { reasonText } from '../messages/reason.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { formatTimestamp } from './format.js';
import { pageOf } from './paging.js';
import { resolveAnyTarget } from './resolve-arguments.js';

export const HISTORY_PAGE_SIZE = 5;

/** `/history <player> [page]`: every punishment this server has stored for the player, newest first. */
export function historyCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => history(deps, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function history(deps: CommandDeps, { sender, args, label }: CommandInvocation): Promise<void> {
  const [playerArg, pageArg] = args;
  if (playerArg === undefined || args.length > 2) throw new CommandUsageError();
  const target = (await resolveAnyTarget(deps, sender, playerArg))?.player;
  if (!target) return;
  const render = deps.messages.render.bind(deps.messages);
  const all = deps.records.history(target.uuid);
  if (all.length === 0) {
    sender.sendMessage(render('commands.history.none', { player: target.name }));
    return;
  }
  const { items, page, pages } = pageOf(all, pageArg, HISTORY_PAGE_SIZE);
  if (page > pages) {
    sender.sendMessage(render('commands.history.no-page', { player: target.name, page, pages }));
    return;
  }
  sender.sendMessage(render('commands.history.header', { player: target.name, count: all.length, page, pages }));
  for (const punishment of items) {
    const action = deps.records.actionOf(punishment);
    const timed = action === 'ban' || action === 'mute';
    const length = !timed
      ? ''
      : punishment.durationMs === PERMANENT_MS
        ? `, ${render('time.permanent')}`
        : `, ${formatDuration(punishment.durationMs, deps.messages.locale)}`;
    sender.sendMessage(
      render('commands.history.line', {
        date: formatTimestamp(Date.parse(punishment.createdAt), deps.messages.locale),
        type: titleOf(punishment, typeTitle),
        action,
        length,
        issuer: punishment.issuerName || '-',
        status: punishment.status,
        reason: reasonText(deps.messages, punishment.reason),
        id: punishment.id,
      }),
    );
  }
  if (page < pages)
    sender.sendMessage(render('commands.history.more', { next: `/${label} ${target.name} ${page + 1}` }));
}
