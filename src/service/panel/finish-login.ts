import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PanelAccount } from '../store/panel-account-rows.js';
import { rememberDevice } from './login-devices.js';
import type { PanelContext } from './panel-context.js';
import type { SecondFactor } from './second-factor.js';
import { startSession } from './staff-session.js';

/**
 * The end of a successful login, after the password or after the second factor: a full session,
 * the device cookie when this device was not known to the account, and the audit line.
 */
export async function finishLogin(
  panel: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  login: { account: PanelAccount; networkId: number; trustedDevice: string | undefined; secondFactor?: SecondFactor },
): Promise<void> {
  const { stores, clock } = panel.service;
  const { account, networkId } = login;
  const secure = panel.settings.alwaysSecureCookies;
  const nowMs = clock.now();
  await startSession(
    request,
    reply,
    stores,
    account,
    networkId,
    { nowMs, lifetimeMs: panel.settings.sessionLifetimeMs },
    secure,
  );
  if (login.trustedDevice === undefined) await rememberDevice(request, reply, stores, account.id, nowMs, secure);
  await stores.panelSessions.pruneExpired(nowMs);
  await stores.auditLog.record({
    networkId,
    actor: account.username,
    via: 'panel',
    action: 'session.login',
    ...(login.secondFactor ? { detail: { secondFactor: login.secondFactor } } : {}),
    atMs: nowMs,
  });
}
