import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PanelContext } from './panel-context.js';
import { COOKIE_PATH, isSecureRequest } from './staff-session.js';

/** A login form's own token (double submit): the cookie and the field must match, so no other site can post it. */
export const LOGIN_COOKIE = 'bailiff_login';
export const LOGIN_FIELD = '_login';
/** The page asking for the second factor after a right password. */
export const CODE_PATH = '/panel/login/code';
/** After a right password, the second factor must come within this long. */
export const CODE_STAGE_MS = 5 * 60 * 1000;

/** Only a path inside the panel: a login link must not send anyone elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/panel\/[^/\\]?/.test(next) && !next.startsWith('/panel//') ? next : '/panel/';
}

/** Constant-time comparison of a form's token with its cookie's. */
export function sameToken(cookie: string | undefined, field: unknown): boolean {
  if (!cookie || typeof field !== 'string' || !field) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(field);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The text of a login refused by the throttle; sets `Retry-After` (the status is 429). */
export function tooManyFailures(reply: FastifyReply, seconds: number): string {
  reply.header('retry-after', String(seconds));
  return `too many failed logins: try again in ${seconds} s`;
}

/** The login form, with a fresh token of its own. */
export async function renderLogin(
  panel: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  data: { username?: string; error?: string; next?: string },
  statusCode = 200,
): Promise<FastifyReply> {
  const token = randomBytes(24).toString('base64url');
  reply.setCookie(LOGIN_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureRequest(request, panel.settings.alwaysSecureCookies),
  });
  const html = await panel.views.renderAsync('login', {
    username: data.username ?? '',
    error: data.error,
    next: safeNext(data.next),
    loginField: LOGIN_FIELD,
    loginToken: token,
  });
  return reply.code(statusCode).type('text/html; charset=utf-8').send(html);
}
