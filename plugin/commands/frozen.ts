import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { formatDuration } from '../messages/duration.js';
import { reasonText } from '../messages/reason.js';
import type { CommandDeps } from './deps.js';
import { pageOf } from './paging.js';

export const FROZEN_PAGE_SIZE = 10;

/** `/frozen [page]`: the frozen players this server holds (the network's, when the service keeps freezes), newest first. */
export function frozenCommand(deps: CommandDeps): CommandHandler {
  return { execute: (invocation) => frozen(deps, invocation) };
}

function frozen(deps: CommandDeps, { sender, args, label }: CommandInvocation): void {
  if (args.length > 1) throw new CommandUsageError();
  const render = deps.messages.render.bind(deps.messages);
  const entries = deps.freezes.list();
  if (entries.length === 0) {
    sender.sendMessage(render('commands.frozen.none'));
    return;
  }
  const { items, page, pages } = pageOf(entries, args[0], FROZEN_PAGE_SIZE);
  if (page > pages) {
    sender.sendMessage(render('commands.frozen.no-page', { page, pages }));
    return;
  }
  sender.sendMessage(render('commands.frozen.header', { count: entries.length, page, pages }));
  const now = deps.clock.now();
  for (const entry of items) {
    sender.sendMessage(
      render('commands.frozen.line', {
        player: entry.name,
        issuer: entry.issuer,
        since: formatDuration(Math.max(0, now - entry.frozenAt), deps.messages.locale),
        reason: reasonText(deps.messages, entry.reason),
        where: render(`commands.frozen.${entry.scope === 'network' ? 'network' : 'local'}`),
      }),
    );
  }
  if (page < pages) sender.sendMessage(render('commands.frozen.more', { next: `/${label} ${page + 1}` }));
}
