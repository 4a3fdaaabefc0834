import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { isPasswordCorrect } from '../passwords.js';
import { COOKIE_PATH, clearSessionCookie, isSecureRequest, startSession } from '../staff-session.js';

/** A login form's own token (double submit): the cookie and the field must match, so no other site can post it. */
const LOGIN_COOKIE = 'bailiff_login';
const LOGIN_FIELD = '_login';

const loginForm = z.object({
  username: z.string().trim().min(1, 'enter your username').max(64, 'must be at most 64 characters'),
  password: z.string().min(1, 'enter your password').max(256, 'must be at most 256 characters'),
  [LOGIN_FIELD]: z.string().optional(),
  next: z.string().optional(),
});

const networkForm = z.object({ networkId: z.coerce.number().int().positive() });

/** Only a path inside the panel: a login link must not send anyone elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/panel\/[^/\\]?/.test(next) && !next.startsWith('/panel//') ? next : '/panel/';
}

function sameToken(cookie: string | undefined, field: string | undefined): boolean {
  if (!cookie || !field) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(field);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function renderLogin(
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

/** Login (throttled per address and per username), logout and a superuser's network switch. */
export function registerLoginRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;

  app.get('/login', async (request, reply) => {
    const { next } = request.query as { next?: string };
    return renderLogin(panel, request, reply, { next });
  });

  app.post('/login', async (request, reply) => {
    const parsed = loginForm.safeParse(request.body ?? {});
    const body = (request.body ?? {}) as Record<string, unknown>;
    const next = typeof body.next === 'string' ? body.next : undefined;
    const username = typeof body.username === 'string' ? body.username.trim().slice(0, 64) : '';
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return renderLogin(
        panel,
        request,
        reply,
        { username, next, error: `${issue.path.join('.')}: ${issue.message}` },
        400,
      );
    }
    if (!sameToken(request.cookies[LOGIN_COOKIE], parsed.data[LOGIN_FIELD])) {
      return renderLogin(panel, request, reply, { username, next, error: 'the login form expired: try again' }, 403);
    }
    const accountKey = `account:${parsed.data.username.toLowerCase()}`;
    try {
      panel.addressThrottle.refuseIfExhausted(request.ip);
      panel.accountThrottle.refuseIfExhausted(accountKey);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const seconds = Number(error.extra.retryAfterSeconds ?? 60);
      reply.header('retry-after', String(seconds));
      return renderLogin(
        panel,
        request,
        reply,
        { username, next, error: `too many failed logins: try again in ${seconds} s` },
        429,
      );
    }
    const account = await stores.panelAccounts.findByUsername(parsed.data.username);
    const correct = await isPasswordCorrect(account?.passwordHash, parsed.data.password);
    if (!account || !correct || account.disabled) {
      panel.addressThrottle.recordFailure(request.ip);
      panel.accountThrottle.recordFailure(accountKey);
      return renderLogin(panel, request, reply, { username, next, error: 'wrong username or password' }, 401);
    }
    const networkId = account.networkId ?? (await stores.networks.listNetworks())[0]?.id;
    if (networkId === undefined) {
      return renderLogin(
        panel,
        request,
        reply,
        { username, next, error: 'no network exists yet: add one (bailiff service --seed) first' },
        409,
      );
    }
    await startSession(
      request,
      reply,
      stores,
      account,
      networkId,
      {
        nowMs: clock.now(),
        lifetimeMs: panel.settings.sessionLifetimeMs,
      },
      panel.settings.alwaysSecureCookies,
    );
    reply.clearCookie(LOGIN_COOKIE, { path: COOKIE_PATH });
    await stores.panelSessions.pruneExpired(clock.now());
    await stores.auditLog.record({
      networkId,
      actor: account.username,
      via: 'panel',
      action: 'session.login',
      atMs: clock.now(),
    });
    return reply.redirect(safeNext(parsed.data.next), 303);
  });

  app.post('/logout', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    await stores.panelSessions.remove(staff.sessionIdHash);
    clearSessionCookie(request, reply, panel.settings.alwaysSecureCookies);
    return reply.redirect('/panel/login', 303);
  });

  app.post('/network', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    if (!staff.isSuperuser) throw new HttpError(403, 'only a superuser works in more than one network');
    const parsed = networkForm.safeParse(request.body);
    if (!parsed.success || (await stores.networks.networkName(parsed.data.networkId)) === undefined) {
      throw new HttpError(400, 'networkId: no such network');
    }
    await stores.panelSessions.switchNetwork(staff.sessionIdHash, parsed.data.networkId);
    return reply.redirect('/panel/', 303);
  });
}
