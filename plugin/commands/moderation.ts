import type { DynamicCreateBody } from '../../src/contract/schemas.js';
import { KICK_ORDINAL, MANUAL_BAN_ORDINAL, MANUAL_MUTE_ORDINAL } from '../../src/contract/type-catalogue.js';
import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { PERMANENT_MS } from '../cache/cached-punishment.js';
import { WARNING_STATUS } from '../kinds/index.js';
import { formatDuration } from '../messages/duration.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { refuseExempt } from './exemption.js';
import { issuePunishment } from './issue-punishment.js';
import { makeWayFor } from './make-way.js';
import {
  ALT_BLOCKING_FLAG,
  type DurationRule,
  parseModerationArgs,
  REPLACE_FLAG,
  SILENT_FLAG,
} from './moderation-args.js';
import { registerPreEmptive } from './register-pre-emptive.js';
import { resolveAnyTarget } from './resolve-arguments.js';

interface ModerationCommand {
  ordinal: number;
  duration: DurationRule;
  /** Created with this status instead of `active` (warnings). */
  status?: string;
  /** The target must be online (kicks). */
  online?: boolean;
  /** messages.yml key told once created. */
  done: string;
  /** Word for the queued message and failure lines. */
  action: string;
  /** Takes `-ab` (alt-blocking: `data.altBlocking`). */
  altBlocking?: boolean;
  /** Takes `-r`: bans and mutes replace a running one of the player's. */
  replaces?: boolean;
}

/** `/ban`, `/tempban`, `/mute`, `/tempmute`, `/kick`, `/warn`: one table, one parser, one issue path. */
export const MODERATION_COMMANDS = {
  ban: {
    ordinal: MANUAL_BAN_ORDINAL,
    duration: 'optional',
    done: 'commands.moderation.banned',
    action: 'ban',
    altBlocking: true,
    replaces: true,
  },
  tempban: {
    ordinal: MANUAL_BAN_ORDINAL,
    duration: 'required',
    done: 'commands.moderation.banned',
    action: 'ban',
    altBlocking: true,
    replaces: true,
  },
  mute: {
    ordinal: MANUAL_MUTE_ORDINAL,
    duration: 'optional',
    done: 'commands.moderation.muted',
    action: 'mute',
    replaces: true,
  },
  tempmute: {
    ordinal: MANUAL_MUTE_ORDINAL,
    duration: 'required',
    done: 'commands.moderation.muted',
    action: 'mute',
    replaces: true,
  },
  kick: { ordinal: KICK_ORDINAL, duration: 'none', online: true, done: 'commands.moderation.kicked', action: 'kick' },
  // A warning is a Kick-type record with the status `warning` (see plugin/kinds/warn.ts and docs/owners/commands.md).
  warn: {
    ordinal: KICK_ORDINAL,
    duration: 'none',
    status: WARNING_STATUS,
    done: 'commands.moderation.warned',
    action: 'warning',
  },
} as const satisfies Record<string, ModerationCommand>;

export type ModerationCommandName = keyof typeof MODERATION_COMMANDS;

const DURATION_HINTS = ['30m', '1h', '12h', '1d', '7d', '2w', '1mo', 'perm'];

export function moderationCommand(
  deps: CommandDeps,
  name: ModerationCommandName,
  completions?: Completions,
): CommandHandler {
  const spec: ModerationCommand = MODERATION_COMMANDS[name];
  const flags = [SILENT_FLAG, ...commandFlags(spec)];
  return {
    execute: (invocation) => moderate(deps, spec, invocation),
    tabComplete: ({ args }) => {
      const prefix = args.at(-1) ?? '';
      if (args.length === 1) return completions?.players(prefix) ?? [];
      if (args.length === 2 && spec.duration !== 'none')
        return DURATION_HINTS.filter((hint) => hint.startsWith(prefix));
      return prefix.startsWith('-') ? flags.filter((flag) => flag.startsWith(prefix.toLowerCase())) : [];
    },
  };
}

/** The flags a command reads besides `-s`. */
function commandFlags(spec: ModerationCommand): string[] {
  return [...(spec.altBlocking ? [ALT_BLOCKING_FLAG] : []), ...(spec.replaces ? [REPLACE_FLAG] : [])];
}

async function moderate(deps: CommandDeps, spec: ModerationCommand, { sender, args }: CommandInvocation) {
  const render = deps.messages.render.bind(deps.messages);
  const parsed = parseModerationArgs(args, spec.duration, commandFlags(spec));
  if (!parsed.ok) {
    sender.sendMessage(render('commands.bad-duration', { duration: parsed.badDuration, problem: parsed.problem }));
    return;
  }
  const { player, silent, reason, flags } = parsed.args;
  const altBlocking = flags.has(ALT_BLOCKING_FLAG);
  const replace = flags.has(REPLACE_FLAG);
  const resolved = await resolveAnyTarget(deps, sender, player);
  if (!resolved || refuseExempt(deps, sender, resolved.player)) return;
  const target = resolved.player;
  if (spec.online && !deps.isOnline(target)) {
    sender.sendMessage(render('commands.moderation.not-online', { player: target.name }));
    return;
  }
  const kind = deps.records.actionOfType(spec.ordinal);
  if (spec.status === undefined && !(await makeWayFor(deps, sender, target, kind, { replace, silent }))) return;
  await registerPreEmptive(deps, resolved);
  const durationMs = spec.duration === 'none' ? 0 : (parsed.args.durationMs ?? PERMANENT_MS);
  const body: DynamicCreateBody = {
    targetUuid: target.uuid,
    typeOrdinal: spec.ordinal,
    issuerName: sender.name,
    duration: durationMs,
    ...(reason === '' ? {} : { reason }),
    ...(spec.status === undefined ? {} : { status: spec.status }),
    ...(altBlocking ? { data: { altBlocking: true } } : {}),
  };
  const length =
    spec.duration === 'none'
      ? ''
      : durationMs === PERMANENT_MS
        ? render('broadcast.permanently')
        : render('broadcast.for', { duration: formatDuration(durationMs, deps.messages.locale) });
  const told = altBlocking ? `${length} ${render('commands.moderation.alt-blocking')}` : length;
  await issuePunishment(deps, sender, {
    body,
    target,
    durationMs,
    silent,
    messages: { created: spec.done, queued: 'commands.moderation.queued' },
    placeholders: { player: target.name, length: told, action: spec.action },
    action: spec.action,
  });
}
