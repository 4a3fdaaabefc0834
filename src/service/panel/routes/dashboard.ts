import type { FastifyInstance } from 'fastify';
import { DashboardReader } from '../dashboard-data.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { renderStaffPage } from '../render.js';

/** The dashboard: recent punishments (live), open tickets, charts of the last 30 days. */
export function registerDashboardRoutes(app: FastifyInstance, panel: PanelContext): void {
  const reader = new DashboardReader(panel.service);
  app.get('/', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    const data = await reader.read(staff.networkId);
    return renderStaffPage(panel, request, reply, 'dashboard', {
      title: 'Dashboard',
      script: 'dashboard',
      ...data,
      punishmentsChartJson: JSON.stringify(data.punishmentsChart),
      ticketsChartJson: JSON.stringify(data.ticketsChart),
    });
  });
}
