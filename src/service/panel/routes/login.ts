import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { finishLogin } from '../finish-login.js';
import { requireStaff, staffOf } from '../guard.js';
import { trustedDeviceOf } from '../login-devices.js';
import {
  CODE_PATH,
  CODE_STAGE_MS,
  LOGIN_COOKIE,
  LOGIN_FIELD,
  renderLogin,
  safeNext,
  sameToken,
  tooManyFailures,
} from '../login-page.js';
import type { PanelContext } from '../panel-context.js';
import { isPasswordCorrect } from '../passwords.js';
import { COOKIE_PATH, clearSessionCookie, startSession } from '../staff-session.js';

const loginForm = z.object({
  username: z.string().trim().min(1, 'enter your username').max(64, 'must be at most 64 characters'),
  password: z.string().min(1, 'enter your password').max(256, 'must be at most 256 characters'),
  [LOGIN_FIELD]: z.string().optional(),
  next: z.string().optional(),
});

const networkForm = z.object({ networkId: z.coerce.number().int().positive() });

/**
 * Login (throttled by address, by username and address, and by username for devices that never
 * logged in to it), logout and a superuser's network switch. An account with two-factor goes on
 * to the code page (login-code.ts).
 */
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
    const account = await stores.panelAccounts.findByUsername(parsed.data.username);
    const attempt = {
      address: request.ip,
      username: parsed.data.username,
      trustedDevice: await trustedDeviceOf(request, stores, account?.id, clock.now()),
    };
    const wait = panel.loginThrottle.secondsToWait(attempt);
    if (wait !== undefined) {
      return renderLogin(panel, request, reply, { username, next, error: tooManyFailures(reply, wait) }, 429);
    }
    const correct = await isPasswordCorrect(account?.passwordHash, parsed.data.password);
    if (!account || !correct || account.disabled) {
      panel.loginThrottle.recordFailure(attempt);
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
    reply.clearCookie(LOGIN_COOKIE, { path: COOKIE_PATH });
    if (account.twoFactorEnabled) {
      // The password was right: a session that opens nothing but the code page, for a few minutes.
      const times = { nowMs: clock.now(), lifetimeMs: CODE_STAGE_MS, stage: 'code' as const };
      await startSession(request, reply, stores, account, networkId, times, panel.settings.alwaysSecureCookies);
      return reply.redirect(`${CODE_PATH}?next=${encodeURIComponent(safeNext(parsed.data.next))}`, 303);
    }
    await finishLogin(panel, request, reply, { account, networkId, trustedDevice: attempt.trustedDevice });
    return reply.redirect(safeNext(parsed.data.next), 303);
  });

  app.post('/logout', { preHandler: requireStaff(panel, null, { whileEnrolling: true }) }, async (request, reply) => {
    const staff = staffOf(request);
    await stores.panelSessions.remove(staff.sessionIdHash);
    clearSessionCookie(request, reply, panel.settings.alwaysSecureCookies);
    await panel.staffSignals.send({ kind: 'account', accountId: staff.accountId });
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
    await panel.staffSignals.send({ kind: 'account', accountId: staff.accountId });
    return reply.redirect('/panel/', 303);
  });
}
