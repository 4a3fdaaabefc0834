import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_FIELD } from './csrf.js';
import { staffOf } from './guard.js';
import { STAFF_NAV } from './nav.js';
import type { PanelContext } from './panel-context.js';
import { redactAddressesIn } from './redact-addresses.js';

/** What every staff page's layout shows: who is logged in, the navigation, the CSRF token. */
export async function staffLayoutData(panel: PanelContext, request: FastifyRequest) {
  const staff = staffOf(request);
  const networks = staff.isSuperuser ? await panel.service.stores.networks.listNetworks() : [];
  return {
    staff: {
      username: staff.username,
      role: staff.role,
      networkName: staff.networkName,
      networkId: staff.networkId,
      permissions: [...staff.permissions],
    },
    can: (permission: string) => staff.permissions.has(permission as never),
    networks,
    // Until two-factor is set up where the role requires it, no other page opens: none is offered.
    nav: staff.mustEnrolTwoFactor ? [] : STAFF_NAV.filter((item) => staff.permissions.has(item.permission)),
    currentPath: request.url.split('?')[0],
    csrf: { field: CSRF_FIELD, token: staff.csrfToken },
  };
}

/**
 * Renders a staff page (its template uses layouts/staff) as HTML. For a role without `see-ip`, every
 * address in the page's data is hidden here, whatever page it is.
 */
export async function renderStaffPage(
  panel: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  data: Record<string, unknown>,
  statusCode = 200,
): Promise<FastifyReply> {
  const shown = staffOf(request).permissions.has('see-ip') ? data : redactAddressesIn(data);
  const html = await panel.views.renderAsync(view, { ...(await staffLayoutData(panel, request)), ...shown });
  return reply.code(statusCode).type('text/html; charset=utf-8').send(html);
}
