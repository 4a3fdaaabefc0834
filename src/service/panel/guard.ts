import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { HttpError } from '../http/errors.js';
import { CSRF_FIELD, isCsrfTokenValid } from './csrf.js';
import type { PanelContext } from './panel-context.js';
import type { Permission } from './permissions.js';
import { loadStaff, SESSION_COOKIE, type Staff } from './staff-session.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff member of the panel session; set by {@link requireStaff} on staff routes. */
    staff: Staff | null;
  }
}

const LOGIN_PATH = '/panel/login';
/** Where a staff member whose role requires two-factor sets it up. */
export const ACCOUNT_PATH = '/panel/account';

export interface GuardOptions {
  /** Open to a staff member who must set two-factor up first (their account page, logout). @default false */
  whileEnrolling?: boolean;
}

/** The staff member of a route guarded by {@link requireStaff}. */
export function staffOf(request: FastifyRequest): Staff {
  if (!request.staff) throw new HttpError(401, 'not logged in');
  return request.staff;
}

function sendToLogin(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (request.method === 'GET') {
    const next = encodeURIComponent(request.url);
    return reply.redirect(`${LOGIN_PATH}?next=${next}`, 303);
  }
  throw new HttpError(401, 'your session ended: log in again');
}

/**
 * The preHandler of every staff route: a live session, the route's permission in the session's
 * network (null: any staff member), and on every write the session's CSRF token in the form. A
 * staff member whose role requires two-factor and who has none is sent to set it up. Checked on
 * the server for each request, whatever the page showed.
 */
export function requireStaff(
  panel: PanelContext,
  permission: Permission | null,
  options: GuardOptions = {},
): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const staff = await loadStaff(request, panel.service.stores, panel.service.clock.now());
    if (!staff) {
      await sendToLogin(request, reply);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const sessionId = request.cookies[SESSION_COOKIE] ?? '';
      if (!isCsrfTokenValid(sessionId, body[CSRF_FIELD])) {
        throw new HttpError(
          403,
          'this form has no valid CSRF token (it is stale or came from another site): reload the page and try again',
        );
      }
    }
    if (staff.mustEnrolTwoFactor && !options.whileEnrolling) {
      if (request.method === 'GET') {
        await reply.redirect(ACCOUNT_PATH, 303);
        return;
      }
      throw new HttpError(
        403,
        `your role (${staff.role}) requires two-factor authentication: set it up on your account page (${ACCOUNT_PATH}) first`,
      );
    }
    if (permission !== null && !staff.permissions.has(permission)) {
      throw new HttpError(403, `your role (${staff.role}) does not have the "${permission}" permission`);
    }
    request.staff = staff;
  };
}
