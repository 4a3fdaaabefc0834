import { ADDRESS_ONLY_TARGET, ADDRESS_ONLY_TARGET_NAME } from '../../src/contract/evasion-data.js';
import type { DynamicCreateBody } from '../../src/contract/schemas.js';
import { MANUAL_BAN_ORDINAL } from '../../src/contract/type-catalogue.js';
import { DEFAULT_IP_BAN_PREFIX_LIMITS, tooBroadIpBan } from '../../src/ip/ip-ban-breadth.js';
import type { IpRange } from '../../src/ip/ip-range.js';
import type { CommandHandler, CommandInvocation, CommandSender } from '../../src/runtime/plugin-api.js';
import { PERMANENT_MS } from '../cache/cached-punishment.js';
import type { KnownPlayer } from '../identity/known-player.js';
import { formatDuration } from '../messages/duration.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { refuseExempt } from './exemption.js';
import { describeIpTarget, resolveIpTarget } from './ip-target.js';
import { issuePunishment } from './issue-punishment.js';
import { parseModerationArgs, SILENT_FLAG } from './moderation-args.js';
import { liftAll } from './pardon.js';

const DURATION_HINTS = ['1h', '1d', '7d', '30d', 'perm'];

/**
 * `/ban-ip` (`/ipban`) and `/tempipban <target> <duration>`: `<player|address|range> [duration] [-s]
 * [reason...]`. A Manual Ban carrying `data.ipAddress`: every account from the address or range is
 * refused, here from the cache's address index (also while the service is down), elsewhere through
 * the service. A player's ban targets them and the address they last joined from; an address or
 * range names no account (the nil UUID, which a service offering only the contract refuses).
 */
export function ipBanCommand(
  deps: CommandDeps,
  duration: 'optional' | 'required',
  completions?: Completions,
): CommandHandler {
  return {
    execute: (invocation) => banAddress(deps, duration, invocation),
    tabComplete: ({ args }) => {
      const prefix = args.at(-1) ?? '';
      if (args.length === 1) return completions?.players(prefix) ?? [];
      if (args.length === 2) return DURATION_HINTS.filter((hint) => hint.startsWith(prefix));
      return prefix.startsWith('-') ? [SILENT_FLAG] : [];
    },
  };
}

async function banAddress(deps: CommandDeps, duration: 'optional' | 'required', { sender, args }: CommandInvocation) {
  const render = deps.messages.render.bind(deps.messages);
  const parsed = parseModerationArgs(args, duration);
  if (!parsed.ok) {
    sender.sendMessage(render('commands.bad-duration', { duration: parsed.badDuration, problem: parsed.problem }));
    return;
  }
  const { player: input, silent, reason } = parsed.args;
  const target = resolveIpTarget(deps, sender, input);
  if (!target) return;
  if (target.kind === 'address' && refuseTooBroad(deps, sender, target.range)) return;
  if (target.kind === 'player' && refuseExempt(deps, sender, target.player)) return;
  if (target.kind === 'player' && target.ip === undefined) {
    sender.sendMessage(render('commands.ip-ban.no-address', { player: target.player.name }));
    return;
  }
  const ipAddress = target.kind === 'address' ? target.range.text : target.ip!;
  const account: KnownPlayer =
    target.kind === 'player' ? target.player : { uuid: ADDRESS_ONLY_TARGET, name: ADDRESS_ONLY_TARGET_NAME };
  const durationMs = parsed.args.durationMs ?? PERMANENT_MS;
  const body: DynamicCreateBody = {
    targetUuid: account.uuid,
    typeOrdinal: MANUAL_BAN_ORDINAL,
    issuerName: sender.name,
    duration: durationMs,
    ...(reason === '' ? {} : { reason }),
    data: { ipAddress },
  };
  const length =
    durationMs === PERMANENT_MS
      ? render('broadcast.permanently')
      : render('broadcast.for', { duration: formatDuration(durationMs, deps.messages.locale) });
  await issuePunishment(deps, sender, {
    body,
    target: account,
    durationMs,
    silent,
    messages: { created: 'commands.ip-ban.banned', queued: 'commands.moderation.queued' },
    placeholders: { player: describeIpTarget(deps, sender, target), length, action: 'IP ban' },
    action: 'IP ban',
  });
}

/** A range broader than config.yml allows is refused with the setting's name; true when refused. */
function refuseTooBroad(deps: CommandDeps, sender: CommandSender, range: IpRange): boolean {
  const limits = deps.evasion.ipBanPrefixLimits?.() ?? DEFAULT_IP_BAN_PREFIX_LIMITS;
  const prefix = tooBroadIpBan(range, limits);
  if (prefix === undefined) return false;
  const setting = range.version === 4 ? 'evasion.ipBanMinPrefixV4' : 'evasion.ipBanMinPrefixV6';
  sender.sendMessage(deps.messages.render('commands.ip-ban.too-broad', { range: range.text, prefix, setting }));
  return true;
}

/**
 * `/unban-ip <player|address|range> [-s] [reason...]` (`/pardon-ip`): pardons the running IP bans of
 * exactly that address or range, or, for a player, those targeting them and those of their last
 * address; lifted here at once, the pardon queued when the service cannot take it now.
 */
export function ipUnbanCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => unbanAddress(deps, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function unbanAddress(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const render = deps.messages.render.bind(deps.messages);
  const parsed = parseModerationArgs(args, 'none');
  if (!parsed.ok) return; // no duration is read, so never reached
  const { player: input, silent, reason } = parsed.args;
  const target = resolveIpTarget(deps, sender, input);
  if (!target) return;
  const now = deps.clock.now();
  const running =
    target.kind === 'address'
      ? deps.records.runningIpBans({ ipAddress: target.range.text }, now)
      : deps.records.runningIpBans(
          { targetUuid: target.player.uuid, ...(target.ip === undefined ? {} : { ipAddress: target.ip }) },
          now,
        );
  const described = describeIpTarget(deps, sender, target);
  if (running.length === 0) {
    sender.sendMessage(render('commands.ip-unban.none', { player: described }));
    return;
  }
  const outcome = await liftAll(deps, sender, running, { reason, silent });
  if (outcome === 'stopped') return;
  const key = outcome === 'queued' ? 'commands.ip-unban.queued' : 'commands.ip-unban.done';
  sender.sendMessage(render(key, { player: described, count: running.length }));
}
