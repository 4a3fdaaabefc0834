import { PERMANENT } from '../../src/contract/schemas.js';

const UNITS: ReadonlyArray<readonly [unit: string, ms: number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/** Formatters by locale and unit, made once: a blocked chat line formats a time left. */
const formatters = new Map<string, Intl.NumberFormat>();
const MAX_FORMATTERS = 256;

function formatUnit(locale: string, unit: string, count: number): string {
  const key = `${locale}|${unit}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    // English keeps the compact 7d 12h; other languages read better with ICU's short units (7 Tg. 12 Std.).
    const unitDisplay = new Intl.Locale(locale).language === 'en' ? 'narrow' : 'short';
    formatter = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay, useGrouping: false });
    formatters.set(key, formatter);
  }
  return plainSpaces(formatter.format(count));
}

/** ICU puts no-break spaces in `7 Tg.`; Minecraft's font may lack U+202F: plain spaces read the same. */
export function plainSpaces(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, ' ');
}

/**
 * A duration for people in `locale` (a BCP 47 tag): `permanent` for -1, else the two largest
 * adjacent units (`30m`, `7d`, `1d 12h`, never `1d 30m`; `7 Tg. 12 Std.` in German), rounded up
 * to whole seconds so a time left never reads shorter than it is; `0s` for nothing.
 */
export function formatDuration(durationMs: number, locale = 'en'): string {
  if (durationMs === PERMANENT) return 'permanent';
  let rest = Math.max(0, Math.ceil(durationMs / 1000) * 1000);
  const parts: string[] = [];
  for (const [unit, unitMs] of UNITS) {
    if (parts.length === 2) break;
    const count = Math.floor(rest / unitMs);
    if (count > 0) {
      parts.push(formatUnit(locale, unit, count));
      rest -= count * unitMs;
    } else if (parts.length > 0) {
      break;
    }
  }
  return parts.length === 0 ? formatUnit(locale, 'second', 0) : parts.join(' ');
}
