import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { looksLikeDuration, parseDurationInput } from './duration-input.js';

/**
 * The flags moderation commands read anywhere among their arguments (any case), by what they
 * mean. A new flag is one entry here and one field in {@link ModerationFlags}.
 */
export const MODERATION_FLAGS = {
  /** Nobody is told but the staff member (no broadcast). */
  silent: '-s',
  /** A running ban or mute of the player is pardoned, then the new one created. */
  replace: '-r',
} as const;

export type ModerationFlags = { [flag in keyof typeof MODERATION_FLAGS]: boolean };

export const SILENT_FLAG = MODERATION_FLAGS.silent;

/** Whether the command reads a duration after the player: `/ban`, `/tempban`, `/kick`. */
export type DurationRule = 'optional' | 'required' | 'none';

export interface ModerationArgs extends ModerationFlags {
  player: string;
  /** Milliseconds (-1 permanent); undefined when none was given. */
  durationMs: number | undefined;
  reason: string;
}

export type ParsedModerationArgs =
  | { ok: true; args: ModerationArgs }
  | { ok: false; badDuration: string; problem: string };

/** Splits the flags of {@link MODERATION_FLAGS} (anywhere, any case) from the other words. */
export function takeFlags(raw: readonly string[]): { flags: ModerationFlags; words: string[] } {
  const names = Object.keys(MODERATION_FLAGS) as (keyof ModerationFlags)[];
  const spellings = new Map<string, keyof ModerationFlags>(names.map((flag) => [MODERATION_FLAGS[flag], flag]));
  const flags = Object.fromEntries(names.map((flag) => [flag, false])) as Record<keyof ModerationFlags, boolean>;
  const words: string[] = [];
  for (const word of raw) {
    const flag = spellings.get(word.toLowerCase());
    if (flag) flags[flag] = true;
    else words.push(word);
  }
  return { flags, words };
}

/**
 * The arguments every moderation command shares: `<player> [duration] [flags] [reason...]`.
 * With `optional`, the word after the player is a duration when it looks like one (starts with
 * a digit, or `perm`), else the reason starts there. Throws {@link CommandUsageError} when the
 * player (or a required duration) is missing.
 */
export function parseModerationArgs(raw: readonly string[], rule: DurationRule): ParsedModerationArgs {
  const { flags, words } = takeFlags(raw);
  const [player, ...rest] = words;
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
  return { ok: true, args: { player, durationMs, ...flags, reason: rest.join(' ').trim() } };
}
