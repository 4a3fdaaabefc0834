import { PERMANENT } from '../../src/contract/schemas.js';

const UNITS: ReadonlyArray<readonly [suffix: string, ms: number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
];

/**
 * A duration for people: `permanent` for -1, else the two largest adjacent units (`30m`, `7d`,
 * `1d 12h`, never `1d 30m`), rounded up to whole seconds so a time left never reads shorter than
 * it is; `0s` for nothing.
 */
export function formatDuration(durationMs: number): string {
  if (durationMs === PERMANENT) return 'permanent';
  let rest = Math.max(0, Math.ceil(durationMs / 1000) * 1000);
  const parts: string[] = [];
  for (const [suffix, unitMs] of UNITS) {
    if (parts.length === 2) break;
    const count = Math.floor(rest / unitMs);
    if (count > 0) {
      parts.push(`${count}${suffix}`);
      rest -= count * unitMs;
    } else if (parts.length > 0) {
      break;
    }
  }
  return parts.length === 0 ? '0s' : parts.join(' ');
}
