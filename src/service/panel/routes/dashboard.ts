import type { FastifyInstance } from 'fastify';
import { DashboardReader } from '../dashboard-data.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { renderStaffPage } from '../render.js';
import { STATS_DEFAULT_DAYS, StaffStatsReader, statsRangeOf } from '../staff-stats-data.js';

/** The dashboard: recent punishments (live), open tickets, charts of the last 30 days. */
export function registerDashboardRoutes(app: FastifyInstance, panel: PanelContext): void {
  const reader = new DashboardReader(panel.service);
  const staffStats = new StaffStatsReader(panel.service);
  app.get('/', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    const data = await reader.read(staff.networkId);
    const asked = statsRangeOf(request.query, panel.service.clock.now());
    // A refused range says why and shows the default one.
    const chosen = 'range' in asked ? asked : statsRangeOf({}, panel.service.clock.now());
    const range = 'range' in chosen ? chosen.range : undefined;
    const stats = {
      from: range?.from ?? '',
      to: range?.to ?? '',
      error: 'error' in asked ? asked.error : null,
      rows: range ? await staffStats.read(staff.networkId, range) : [],
      defaultDays: STATS_DEFAULT_DAYS,
    };
    return renderStaffPage(
      panel,
      request,
      reply,
      'dashboard',
      {
        title: 'Dashboard',
        script: 'dashboard',
        ...data,
        punishmentsChartJson: JSON.stringify(data.punishmentsChart),
        ticketsChartJson: JSON.stringify(data.ticketsChart),
        stats,
      },
      'error' in asked ? 400 : 200,
    );
  });
}
