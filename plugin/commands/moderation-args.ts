import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { looksLikeDuration, parseDurationInput } from './duration-input.js';

/** `-s` anywhere in the arguments makes the punishment silent (no staff broadcast). */
export const SILENT_FLAG = '-s';

/** Whether the command reads a duration after the player: `/ban`, `/tempban`, `/kick`. */
export type DurationRule = 'optional' | 'required' | 'none';

export interface ModerationArgs {
  player: string;
  /** Milliseconds (-1 permanent); undefined when none was given. */
  durationMs: number | undefined;
  silent: boolean;
  reason: string;
}

export type ParsedModerationArgs =
  | { ok: true; args: ModerationArgs }
  | { ok: false; badDuration: string; problem: string };

/**
 * The arguments every moderation command shares: `<player> [duration] [-s] [reason...]`.
 * With `optional`, the word after the player is a duration when it looks like one (starts with
 * a digit, or `perm`), else the reason starts there. Throws {@link CommandUsageError} when the
 * player (or a required duration) is missing.
 */
export function parseModerationArgs(raw: readonly string[], rule: DurationRule): ParsedModerationArgs {
  const silent = raw.some((word) => word.toLowerCase() === SILENT_FLAG);
  const [player, ...rest] = raw.filter((word) => word.toLowerCase() !== SILENT_FLAG);
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
  return { ok: true, args: { player, durationMs, silent, reason: rest.join(' ').trim() } };
}
