import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { shownDate } from '../public/public-rows.js';
import { renderStaffPage } from '../render.js';

export const AUDIT_PAGE_SIZE = 50;
/** The areas the filter offers; an action is `area.verb`. */
const AREAS = [
  'punishment',
  'ticket',
  'appeal',
  'account',
  'role',
  'player',
  'webhook',
  'network',
  'server',
  'migration',
  'login',
] as const;

const auditQuery = z.object({
  actor: z.string().max(64).optional(),
  area: z.enum(['', ...AREAS]).optional(),
  before: z
    .string()
    .regex(/^\d{1,16}$/)
    .optional(),
});

/**
 * The audit page (`view`): every staff action of the network, through the panel, the API or the
 * admin API, newest first, filtered by actor and area. Addresses in details are only shown to
 * roles with `see-ip` (`renderStaffPage` hides them from the others).
 */
export function registerAuditRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores } = panel.service;
  app.get('/audit', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    const parsed = auditQuery.safeParse(request.query);
    const query = parsed.success ? parsed.data : {};
    const filter = { ...(query.actor ? { actor: query.actor } : {}), ...(query.area ? { area: query.area } : {}) };
    const beforeId = query.before ? Number(query.before) : Number.MAX_SAFE_INTEGER;
    const rows = await stores.auditQuery.page(staff.networkId, filter, beforeId, AUDIT_PAGE_SIZE + 1);
    const shown = rows.slice(0, AUDIT_PAGE_SIZE);
    const next = new URLSearchParams({ ...filter, before: String(shown.at(-1)?.id ?? 0) });
    return renderStaffPage(panel, request, reply, 'audit/list', {
      title: 'Audit log',
      entries: shown.map((entry) => ({
        ...entry,
        at: shownDate(entry.atMs),
        detail: entry.detail === null ? '' : JSON.stringify(entry.detail),
      })),
      filter: { actor: query.actor ?? '', area: query.area ?? '' },
      areas: AREAS,
      nextHref: rows.length > AUDIT_PAGE_SIZE ? `/panel/audit?${next}` : null,
    });
  });
}
