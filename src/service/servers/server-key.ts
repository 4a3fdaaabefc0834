import { randomBytes } from 'node:crypto';
import { parseDurationText } from '../panel/duration-text.js';
import { ServerManagementError } from './server-management-error.js';

/** Makes a new server key. */
export type ServerKeyGenerator = () => string;

/** 32 random bytes as 43 base64url characters: far beyond guessing, and safe in a header or a YAML file. */
export const randomServerKey: ServerKeyGenerator = () => randomBytes(32).toString('base64url');

/** The longest an old key may stay valid after a rotation. */
export const MAX_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

/** What an operator may type as a grace period. */
export const GRACE_HINT = '0 (the old key stops now) or a length like 30m, 12h, 7d (at most 30d)';

/** A grace period typed by an operator (`0`, `now`, `90s`, `12h`, `7d 12h`), in ms; refused when out of range. */
export function parseGrace(text: string): number {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '0' || trimmed === 'now') return 0;
  let graceMs: number | undefined;
  try {
    graceMs = parseDurationText(trimmed);
  } catch {
    graceMs = undefined;
  }
  if (graceMs === undefined || graceMs < 0) {
    throw new ServerManagementError(400, `grace: '${text.slice(0, 40)}' is not a grace period: ${GRACE_HINT}`);
  }
  return checkGraceMs(graceMs);
}

/** A grace period given as a number of milliseconds; refused when out of range. */
export function checkGraceMs(graceMs: number): number {
  if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > MAX_GRACE_MS) {
    throw new ServerManagementError(400, `grace: must be from 0 to 30 days, received ${graceMs} ms`);
  }
  return graceMs;
}
