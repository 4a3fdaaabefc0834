import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceStores } from '../context.js';
import { isSecureRequest } from './staff-session.js';

/** Only the login pages read it. */
const DEVICE_COOKIE_PATH = '/panel/login';
/** A device stays known this long after it logged in. */
export const DEVICE_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000;
/** Devices remembered per account; the oldest are forgotten first. */
const DEVICES_PER_ACCOUNT = 20;

/** One cookie per account, so a browser shared by two staff members knows both. */
export const deviceCookieName = (accountId: number) => `bailiff_device_${accountId}`;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/**
 * The hash (hex) of the request's device cookie for this account, when it is one the service
 * handed out at a successful login of that account and it has not expired; else undefined.
 */
export async function trustedDeviceOf(
  request: FastifyRequest,
  stores: Pick<ServiceStores, 'panelDevices'>,
  accountId: number | undefined,
  nowMs: number,
): Promise<string | undefined> {
  if (accountId === undefined) return undefined;
  const token = request.cookies[deviceCookieName(accountId)];
  if (!token || token.length > 100) return undefined;
  const tokenHash = hashOf(token);
  const device = await stores.panelDevices.find(tokenHash, nowMs);
  return device?.accountId === accountId ? tokenHash.toString('hex') : undefined;
}

/**
 * After a successful login from a device the account did not know: a random token in a long-lived
 * HttpOnly, SameSite=Strict cookie, its SHA-256 stored (OWASP's device cookie).
 */
export async function rememberDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  stores: Pick<ServiceStores, 'panelDevices'>,
  accountId: number,
  nowMs: number,
  alwaysSecure: boolean,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await stores.panelDevices.remember(hashOf(token), {
    accountId,
    createdAt: nowMs,
    expiresAt: nowMs + DEVICE_LIFETIME_MS,
  });
  await stores.panelDevices.forgetOlder(accountId, DEVICES_PER_ACCOUNT);
  await stores.panelDevices.pruneExpired(nowMs);
  reply.setCookie(deviceCookieName(accountId), token, {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureRequest(request, alwaysSecure),
    maxAge: Math.floor(DEVICE_LIFETIME_MS / 1000),
  });
}
