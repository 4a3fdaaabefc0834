import { MAX_DURATION_MS, PERMANENT } from '../../src/contract/schemas.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Units staff type, longest spelling first so `mo` is never read as `m` + `o`. */
const UNITS: ReadonlyArray<readonly [unit: string, ms: number]> = [
  ['mo', 30 * DAY],
  ['s', 1000],
  ['m', MINUTE],
  ['h', HOUR],
  ['d', DAY],
  ['w', 7 * DAY],
  ['y', 365 * DAY],
];
const PERMANENT_WORDS = new Set(['perm', 'permanent', 'forever']);
const PART = /(\d+)(mo|[smhdwy])/gy;

export type DurationInput = { ok: true; ms: number } | { ok: false; problem: string };

/**
 * `30m`, `12h`, `7d`, `2w`, `1mo` (30 days), `1y`, combined as `1d12h`; `perm`, `permanent` or
 * `forever` for permanent (-1). Case-insensitive. Anything else is refused with the reason.
 */
export function parseDurationInput(input: string): DurationInput {
  const text = input.trim().toLowerCase();
  if (PERMANENT_WORDS.has(text)) return { ok: true, ms: PERMANENT };
  if (text === '') return { ok: false, problem: 'empty' };
  let total = 0;
  PART.lastIndex = 0;
  let parts = 0;
  while (PART.lastIndex < text.length && parts <= text.length) {
    const match = PART.exec(text);
    if (!match) return { ok: false, problem: `use a number and a unit (s, m, h, d, w, mo, y), like 30m, 7d or 1d12h` };
    total += Number(match[1]) * UNITS.find(([unit]) => unit === match[2])![1];
    parts += 1;
  }
  if (total <= 0) return { ok: false, problem: 'must be longer than 0' };
  if (!Number.isSafeInteger(total) || total > MAX_DURATION_MS) {
    return { ok: false, problem: 'too long: at most 1000y (use perm for permanent)' };
  }
  return { ok: true, ms: total };
}

/**
 * Whether a word was meant as a duration (so a bad one is an error, not the start of a
 * reason): it starts with a digit, or is one of the permanent words.
 */
export function looksLikeDuration(word: string): boolean {
  return /^\d/.test(word) || PERMANENT_WORDS.has(word.toLowerCase());
}
