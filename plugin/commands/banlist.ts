import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { reasonText } from '../messages/reason.js';
import type { CommandDeps } from './deps.js';
import { pageOf } from './paging.js';
import { remainingText } from './remaining-text.js';

export const BANLIST_PAGE_SIZE = 10;

/** `/banlist [page]`: the bans running now in this server's cache, newest first. */
export function banlistCommand(deps: CommandDeps): CommandHandler {
  return { execute: (invocation) => banlist(deps, invocation) };
}

function banlist(deps: CommandDeps, { sender, args, label }: CommandInvocation): void {
  if (args.length > 1) throw new CommandUsageError();
  const now = deps.clock.now();
  const render = deps.messages.render.bind(deps.messages);
  const bans = deps.records.activeBans(now);
  if (bans.length === 0) {
    sender.sendMessage(render('commands.banlist.none'));
    return;
  }
  const { items, page, pages } = pageOf(bans, args[0], BANLIST_PAGE_SIZE);
  if (page > pages) {
    sender.sendMessage(render('commands.banlist.no-page', { page, pages }));
    return;
  }
  sender.sendMessage(render('commands.banlist.header', { count: bans.length, page, pages }));
  for (const ban of items) {
    sender.sendMessage(
      render('commands.banlist.line', {
        player: ban.targetName,
        issuer: ban.issuerName || '-',
        remaining: remainingText(deps.messages, ban, now),
        reason: reasonText(deps.messages, ban.reason),
        id: ban.id,
      }),
    );
  }
  if (page < pages) sender.sendMessage(render('commands.banlist.more', { next: `/${label} ${page + 1}` }));
}
