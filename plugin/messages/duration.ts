const UNITS: ReadonlyArray<[suffix: string, ms: number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
];

/** `2d 3h 5m`: the two largest non-zero units, rounded up to whole seconds; never empty. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.ceil(ms / 1000) * 1000);
  const parts: string[] = [];
  for (const [suffix, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0 || parts.length > 0) {
      if (count > 0) parts.push(`${count}${suffix}`);
      rest -= count * size;
    }
    if (parts.length === 2) break;
  }
  return parts.length > 0 ? parts.join(' ') : '0s';
}
