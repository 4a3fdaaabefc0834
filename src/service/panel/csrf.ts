import { createHmac, timingSafeEqual } from 'node:crypto';

/** The form field every panel write carries. */
export const CSRF_FIELD = '_csrf';

/**
 * The session's CSRF token, derived from its id (which only the HttpOnly cookie holds), so no page
 * of another site can know it and nothing more has to be stored.
 */
export function csrfTokenOf(sessionId: string): string {
  return createHmac('sha256', sessionId).update('bailiff panel csrf').digest('base64url');
}

/** Constant-time comparison of a submitted token with the session's. */
export function isCsrfTokenValid(sessionId: string, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const expected = Buffer.from(csrfTokenOf(sessionId));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
