const UNITS: ReadonlyArray<readonly [string, number]> = [
  ['w', 604_800_000],
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
];

/** A length as the limits name it: `7d`, `12h`, `90m`, `permanent` for -1; the largest unit (days at most) that divides it. */
export function limitText(durationMs: number): string {
  if (durationMs < 0) return 'permanent';
  for (const [unit, ms] of UNITS.slice(1))
    if (durationMs >= ms && durationMs % ms === 0) return `${durationMs / ms}${unit}`;
  return `${Math.ceil(durationMs / 1000)}s`;
}

/** `7d`, `12h`, `30m`, `2w` (one number, one unit) in ms; undefined when it is not one. */
export function parseLimitText(text: string): number | undefined {
  const match = /^(\d{1,5})([mhdw])$/.exec(text);
  if (!match) return undefined;
  const unit = UNITS.find(([name]) => name === match[2])!;
  return Number(match[1]) * unit[1];
}
