import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { looksLikeDuration, parseDurationInput } from './duration-input.js';

/** `-s` anywhere in the arguments makes the punishment silent (no staff broadcast). */
export const SILENT_FLAG = '-s';
/** `-ab` on `/ban` and `/tempban`: alt-blocking (accounts linked to the player get a Linked Ban). */
export const ALT_BLOCKING_FLAG = '-ab';
/** `-r` on bans and mutes: a running one of the player's is pardoned, then the new one created. */
export const REPLACE_FLAG = '-r';

/** Whether the command reads a duration after the player: `/ban`, `/tempban`, `/kick`. */
export type DurationRule = 'optional' | 'required' | 'none';

export interface ModerationArgs {
  player: string;
  /** Milliseconds (-1 permanent); undefined when none was given. */
  durationMs: number | undefined;
  silent: boolean;
  /** Every flag found (lower case), `-s` included. */
  flags: ReadonlySet<string>;
  reason: string;
}

export type ParsedModerationArgs =
  | { ok: true; args: ModerationArgs }
  | { ok: false; badDuration: string; problem: string };

/**
 * The arguments every moderation command shares: `<player> [duration] [-s] [reason...]`, plus the
 * command's own `flags` (like `-ab`), each found anywhere and case-insensitive. With `optional`,
 * the word after the player is a duration when it looks like one (starts with a digit, or `perm`),
 * else the reason starts there. Throws {@link CommandUsageError} when the player (or a required
 * duration) is missing.
 */
export function parseModerationArgs(
  raw: readonly string[],
  rule: DurationRule,
  flags: readonly string[] = [],
): ParsedModerationArgs {
  const known = new Set([SILENT_FLAG, ...flags]);
  const found = new Set(raw.map((word) => word.toLowerCase()).filter((word) => known.has(word)));
  const silent = found.has(SILENT_FLAG);
  const [player, ...rest] = raw.filter((word) => !known.has(word.toLowerCase()));
  if (player === undefined) throw new CommandUsageError('missing player');
  let durationMs: number | undefined;
  const first = rest[0];
  const wantsDuration = rule === 'required' || (rule === 'optional' && first !== undefined && looksLikeDuration(first));
  if (wantsDuration) {
    if (first === undefined) throw new CommandUsageError('missing duration');
    const parsed = parseDurationInput(first);
    if (!parsed.ok) return { ok: false, badDuration: first, problem: parsed.problem };
    durationMs = parsed.ms;
    rest.shift();
  }
  return { ok: true, args: { player, durationMs, silent, flags: found, reason: rest.join(' ').trim() } };
}
