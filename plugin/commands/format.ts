import type { Outcome } from '../../src/api/schemas.js';
import { PERMANENT } from '../../src/api/schemas.js';

const UNITS: ReadonlyArray<readonly [suffix: string, ms: number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
];

/**
 * A duration for people: `permanent` for -1, else the two largest non-zero units
 * (`30m`, `7d`, `1d 12h`). Below a second: `0s`.
 */
export function formatDuration(durationMs: number): string {
  if (durationMs === PERMANENT) return 'permanent';
  let rest = Math.max(0, Math.floor(durationMs));
  const parts: string[] = [];
  for (const [suffix, unitMs] of UNITS) {
    if (parts.length === 2) break;
    const count = Math.floor(rest / unitMs);
    if (count > 0) {
      parts.push(`${count}${suffix}`);
      rest -= count * unitMs;
    } else if (parts.length > 0) {
      // Keep the two units adjacent: `1d 12h`, never `1d 30m`.
      break;
    }
  }
  return parts.length === 0 ? '0s' : parts.join(' ');
}

/** `ban, 7d`, `ban, permanent`, or just `kick` when the outcome has no duration. */
export function formatOutcome(outcome: Outcome): string {
  if (outcome.duration === 0) return outcome.action;
  return `${outcome.action}, ${formatDuration(outcome.duration)}`;
}

/** `2026-11-22 10:14 UTC`, independent of the server's locale and time zone. */
export function formatTimestamp(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** How long ago, for status lines: `12s ago`, `3m 5s ago`. */
export function formatAgo(epochMs: number, nowMs: number): string {
  return `${formatDuration(Math.max(0, nowMs - epochMs))} ago`;
}
