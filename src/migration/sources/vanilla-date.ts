/** `2024-01-31 12:00:00 +0000`, the format of vanilla's ban lists. */
const VANILLA_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

/** Epoch ms of a vanilla ban-list date (ISO 8601 is accepted too); undefined when unreadable. */
export function parseVanillaDate(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = VANILLA_DATE.exec(value.trim());
  if (!match) {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetMs = (Number(match[8]) * 60 + Number(match[9])) * 60_000 * (match[7] === '-' ? -1 : 1);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2024-02-31 over to March: a date that does not round-trip is not a date.
  const check = new Date(utc);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  return utc - offsetMs;
}
