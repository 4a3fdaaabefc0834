import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceStores } from '../context.js';
import type { PanelAccount } from '../store/panel-account-rows.js';
import type { SessionStage } from '../store/ports/panel-sessions.js';
import { csrfTokenOf } from './csrf.js';
import { BUILT_IN_ROLES, builtInRole, isPermission, type Permission, SUPERUSER_ROLE } from './permissions.js';

export const SESSION_COOKIE = 'bailiff_panel';
export const COOKIE_PATH = '/panel';

/** The staff member a request comes from, as its session says. */
export interface Staff {
  accountId: number;
  username: string;
  role: string;
  isSuperuser: boolean;
  permissions: ReadonlySet<Permission>;
  networkId: number;
  networkName: string;
  /** Logins of this account ask for a TOTP code after the password. */
  twoFactorEnabled: boolean;
  /** The network requires two-factor of this role and the account has none: only enrolment is open to it. */
  mustEnrolTwoFactor: boolean;
  /** Put in every form this staff member is shown; checked on every write. */
  csrfToken: string;
  sessionIdHash: Buffer;
}

export const hashSessionId = (sessionId: string) => createHash('sha256').update(sessionId, 'utf8').digest();

/**
 * Whether the panel's cookies get `Secure`: always when the owner says the panel is only reached
 * over HTTPS (a proxy in front terminates TLS), else when this request came over HTTPS.
 */
export const isSecureRequest = (request: FastifyRequest, alwaysSecure = false) =>
  alwaysSecure || request.protocol === 'https';

/** The permissions of a role in a network: built-in roles, then the network's custom ones. */
export async function permissionsOf(
  stores: Pick<ServiceStores, 'panelRoles'>,
  networkId: number,
  role: string,
): Promise<Set<Permission>> {
  const builtIn = builtInRole(role);
  if (builtIn) return new Set(builtIn.permissions);
  const custom = await stores.panelRoles.find(networkId, role);
  return new Set((custom?.permissions ?? []).filter(isPermission));
}

/** Every role name a network's accounts may be given. */
export async function roleNamesOf(stores: Pick<ServiceStores, 'panelRoles'>, networkId: number): Promise<string[]> {
  const custom = await stores.panelRoles.list(networkId);
  return [...BUILT_IN_ROLES.map((role) => role.name), ...custom.map((role) => role.name)];
}

/**
 * The staff member of the request's session cookie; undefined when there is none, it expired, it
 * still waits for its second factor, or the account is disabled.
 */
export async function loadStaff(
  request: FastifyRequest,
  stores: Pick<ServiceStores, 'panelSessions' | 'panelAccounts' | 'panelRoles' | 'networks'>,
  nowMs: number,
): Promise<Staff | undefined> {
  const sessionId = request.cookies[SESSION_COOKIE];
  if (!sessionId) return undefined;
  const sessionIdHash = hashSessionId(sessionId);
  const session = await stores.panelSessions.find(sessionIdHash, nowMs);
  if (session?.stage !== 'full') return undefined;
  const account = await stores.panelAccounts.find(session.accountId);
  if (!account || account.disabled) return undefined;
  const isSuperuser = account.networkId === null;
  if (!isSuperuser && account.networkId !== session.networkId) return undefined;
  const effectiveRole = isSuperuser ? SUPERUSER_ROLE : account.role;
  const permissions = await permissionsOf(stores, session.networkId, effectiveRole);
  const mustEnrolTwoFactor =
    !account.twoFactorEnabled && (await stores.panelRoles.isTwoFactorRequired(session.networkId, effectiveRole));
  return {
    accountId: account.id,
    username: account.username,
    role: isSuperuser ? 'superuser' : account.role,
    isSuperuser,
    permissions,
    networkId: session.networkId,
    networkName: (await stores.networks.networkName(session.networkId)) ?? `#${session.networkId}`,
    twoFactorEnabled: account.twoFactorEnabled,
    mustEnrolTwoFactor,
    csrfToken: csrfTokenOf(sessionId),
    sessionIdHash,
  };
}

/**
 * Starts a session for the account in `networkId` and sets its cookie: a `full` one opens the
 * panel, a `code` one only the page asking for the second factor. Returns the session id.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  stores: Pick<ServiceStores, 'panelSessions'>,
  account: PanelAccount,
  networkId: number,
  times: { nowMs: number; lifetimeMs: number; stage?: SessionStage },
  alwaysSecure = false,
): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  await stores.panelSessions.create(hashSessionId(sessionId), {
    accountId: account.id,
    networkId,
    createdAt: times.nowMs,
    expiresAt: times.nowMs + times.lifetimeMs,
    stage: times.stage ?? 'full',
  });
  reply.setCookie(SESSION_COOKIE, sessionId, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureRequest(request, alwaysSecure),
    maxAge: Math.floor(times.lifetimeMs / 1000),
  });
  return sessionId;
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, alwaysSecure = false): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureRequest(request, alwaysSecure),
  });
}
