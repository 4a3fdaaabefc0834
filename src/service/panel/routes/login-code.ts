import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CSRF_FIELD, csrfTokenOf, isCsrfTokenValid } from '../csrf.js';
import { finishLogin } from '../finish-login.js';
import { trustedDeviceOf } from '../login-devices.js';
import { renderLogin, safeNext, tooManyFailures } from '../login-page.js';
import type { PanelContext } from '../panel-context.js';
import { spendSecondFactor } from '../second-factor.js';
import { hashSessionId, SESSION_COOKIE } from '../staff-session.js';

const codeForm = z.object({
  code: z.string().trim().min(1, 'enter a code').max(64, 'must be at most 64 characters'),
  next: z.string().optional(),
});

/**
 * The second step of a login with two-factor: a code of the authenticator app or a recovery
 * code, asked for by a session that opens nothing else. Wrong codes are throttled as wrong
 * passwords are, on the same allowances.
 */
export function registerLoginCodeRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;

  /** The login waiting for its second factor, from the session cookie. */
  async function pendingLogin(request: FastifyRequest) {
    const sessionId = request.cookies[SESSION_COOKIE];
    if (!sessionId) return undefined;
    const sessionIdHash = hashSessionId(sessionId);
    const session = await stores.panelSessions.find(sessionIdHash, clock.now());
    if (session?.stage !== 'code') return undefined;
    const account = await stores.panelAccounts.find(session.accountId);
    if (!account || account.disabled || !account.twoFactorEnabled) return undefined;
    return { sessionId, sessionIdHash, session, account };
  }

  const renderCode = async (
    reply: FastifyReply,
    sessionId: string,
    data: { username: string; next: unknown; error?: string },
    statusCode = 200,
  ) => {
    const html = await panel.views.renderAsync('login-code', {
      username: data.username,
      next: safeNext(data.next),
      error: data.error,
      csrf: { field: CSRF_FIELD, token: csrfTokenOf(sessionId) },
    });
    return reply.code(statusCode).type('text/html; charset=utf-8').send(html);
  };

  app.get('/login/code', async (request, reply) => {
    const { next } = request.query as { next?: string };
    const pending = await pendingLogin(request);
    if (!pending) return reply.redirect(`/panel/login?next=${encodeURIComponent(safeNext(next))}`, 303);
    return renderCode(reply, pending.sessionId, { username: pending.account.username, next });
  });

  app.post('/login/code', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const pending = await pendingLogin(request);
    if (!pending) {
      const error = 'your login took too long or ended: log in again';
      return renderLogin(panel, request, reply, { next: body.next as string | undefined, error }, 401);
    }
    const { account, session, sessionId } = pending;
    const view = { username: account.username, next: body.next };
    if (!isCsrfTokenValid(sessionId, body[CSRF_FIELD])) {
      return renderCode(reply, sessionId, { ...view, error: 'the form expired: try again' }, 403);
    }
    const parsed = codeForm.safeParse(body);
    if (!parsed.success) {
      return renderCode(reply, sessionId, { ...view, error: `code: ${parsed.error.issues[0]!.message}` }, 400);
    }
    const attempt = {
      address: request.ip,
      username: account.username,
      trustedDevice: await trustedDeviceOf(request, stores, account.id, clock.now()),
    };
    const wait = panel.loginThrottle.secondsToWait(attempt);
    if (wait !== undefined) return renderCode(reply, sessionId, { ...view, error: tooManyFailures(reply, wait) }, 429);
    const secondFactor = await spendSecondFactor(stores, account.id, parsed.data.code, clock.now());
    if (!secondFactor) {
      panel.loginThrottle.recordFailure(attempt);
      const error = 'wrong code: type the 6 digits your app shows now, or an unused recovery code';
      return renderCode(reply, sessionId, { ...view, error }, 401);
    }
    await stores.panelSessions.remove(pending.sessionIdHash);
    await finishLogin(panel, request, reply, {
      account,
      networkId: session.networkId,
      trustedDevice: attempt.trustedDevice,
      secondFactor,
    });
    return reply.redirect(safeNext(parsed.data.next), 303);
  });
}
