import type { FastifyInstance } from 'fastify';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { renderStaffPage } from '../render.js';

/** The dashboard: recent punishments and open tickets. */
export function registerDashboardRoutes(app: FastifyInstance, panel: PanelContext): void {
  app.get('/', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    return renderStaffPage(panel, request, reply, 'dashboard', { title: 'Dashboard', networkId: staff.networkId });
  });
}
