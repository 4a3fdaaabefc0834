import type { Outcome } from '../../src/contract/schemas.js';
import { formatDuration } from '../messages/duration.js';

/** `ban, 7d`, `ban, permanent`, or just `kick` when the outcome has no duration. */
export function formatOutcome(outcome: Outcome): string {
  if (outcome.duration === 0) return outcome.action;
  return `${outcome.action}, ${formatDuration(outcome.duration)}`;
}

export { formatTimestamp } from '../messages/date.js';

/** How long ago, for status lines: `12s ago`, `3m 5s ago`. */
export function formatAgo(epochMs: number, nowMs: number): string {
  return `${formatDuration(Math.max(0, nowMs - epochMs))} ago`;
}
