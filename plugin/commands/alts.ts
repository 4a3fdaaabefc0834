import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { AltAccount, AltsPage } from '../evasion/alts-source.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatAgo } from './format.js';
import { ALTS_IP_PERMISSION } from './ip-target.js';
import { resolveTarget } from './resolve-arguments.js';

export const ALTS_PAGE_SIZE = 10;

/**
 * `/alts <player> [page]`: the accounts linked to a player by shared addresses, with whether each is
 * banned or muted and when it was last seen on a shared address. From the service when it offers
 * linked accounts, else from this server's own record (the header says which). The addresses
 * themselves are shown to holders of bailiff.alts.ip only.
 */
export function altsCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => alts(deps, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function alts(deps: CommandDeps, { sender, args, label }: CommandInvocation): Promise<void> {
  const [playerArg, pageArg] = args;
  if (playerArg === undefined || args.length > 2) throw new CommandUsageError('missing player');
  if (pageArg !== undefined && !/^[1-9]\d{0,5}$/.test(pageArg)) throw new CommandUsageError(`bad page ${pageArg}`);
  const target = resolveTarget(deps, sender, playerArg);
  if (!target) return;
  const page = pageArg === undefined ? 1 : Number(pageArg);
  let found: AltsPage;
  try {
    found = await deps.evasion.linkedAccounts(target, page, ALTS_PAGE_SIZE);
  } catch (error) {
    return reportFailure(sender, deps, error, 'alts');
  }
  const render = deps.messages.render.bind(deps.messages);
  const source = render(found.source === 'service' ? 'commands.alts.from-service' : 'commands.alts.from-record');
  if (found.fallback === 'unreachable') sender.sendMessage(render('commands.alts.service-unreachable'));
  if (found.total === 0) {
    sender.sendMessage(render('commands.alts.none', { player: target.name, source }));
    return;
  }
  const pages = Math.max(1, Math.ceil(found.total / ALTS_PAGE_SIZE));
  sender.sendMessage(render('commands.alts.header', { player: target.name, count: found.total, source, page, pages }));
  const showIps = sender.hasPermission(ALTS_IP_PERMISSION);
  const now = deps.clock.now();
  for (const account of found.accounts) {
    const lastSeen = account.sharedIps[0]?.lastSeenAt;
    const line = render('commands.alts.line', {
      player: account.name || account.uuid,
      status: statusOf(deps, account),
      seen: lastSeen === undefined ? '-' : formatAgo(lastSeen, now),
    });
    const ips = account.sharedIps.map((shared) => shared.ip).join(', ');
    sender.sendMessage(showIps ? `${line}${render('commands.alts.via', { ips })}` : line);
  }
  if (page < pages) sender.sendMessage(render('commands.alts.more', { next: `/${label} ${target.name} ${page + 1}` }));
}

function statusOf(deps: CommandDeps, account: AltAccount): string {
  const words = [
    ...(account.banned ? [deps.messages.render('commands.alts.banned')] : []),
    ...(account.muted ? [deps.messages.render('commands.alts.muted')] : []),
  ];
  return words.length > 0 ? words.join(', ') : deps.messages.render('commands.alts.clean');
}
