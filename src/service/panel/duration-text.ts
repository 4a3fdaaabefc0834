import { MAX_DURATION_MS } from '../../contract/schemas.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** What a staff member may type as a length. */
export const DURATION_HINT = 'like 30m, 12h, 7d, 2w, 1d 12h, or permanent; empty takes the suggested length';

/**
 * A typed length in ms: `permanent` is -1, `7d 12h` adds its parts; undefined when empty (the
 * preview's suggestion applies). Throws a RangeError naming what was typed otherwise.
 */
export function parseDurationText(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return undefined;
  if (trimmed === 'permanent' || trimmed === 'perm') return -1;
  const parts = trimmed.split(/\s+/);
  let total = 0;
  for (const part of parts.slice(0, 5)) {
    const match = /^(\d{1,6})([smhdw])$/.exec(part);
    if (!match) throw new RangeError(`'${text.slice(0, 40)}' is not a length: ${DURATION_HINT}`);
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
  }
  if (parts.length > 5) throw new RangeError(`'${text.slice(0, 40)}' has too many parts: ${DURATION_HINT}`);
  if (total > MAX_DURATION_MS) {
    throw new RangeError(`'${text.slice(0, 40)}' is longer than 1000 years, the longest length: use permanent`);
  }
  return total;
}
