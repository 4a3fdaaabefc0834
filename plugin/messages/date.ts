import { plainSpaces } from './duration.js';

const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 256;

/**
 * A moment for people in `locale`, always in UTC (the server's time zone means nothing to a
 * player): English keeps `2026-11-22 10:14 UTC`; other languages use their own order and month
 * names (`22.11.2026, 10:14 UTC`, `22 nov 2026, 10:14 UTC`).
 */
export function formatTimestamp(epochMs: number, locale = 'en'): string {
  if (new Intl.Locale(locale).language === 'en') {
    return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }
  let formatter = formatters.get(locale);
  if (!formatter) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatter = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    formatters.set(locale, formatter);
  }
  return `${plainSpaces(formatter.format(epochMs))} UTC`;
}
