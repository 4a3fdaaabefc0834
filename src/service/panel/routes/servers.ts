import type { FastifyInstance } from 'fastify';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { shownDate } from '../public/public-rows.js';
import { renderStaffPage } from '../render.js';

const shown = (ms: number | null) => (ms === null ? null : shownDate(ms));

/** The servers page (`view`): each game server of the network as the service sees it now. */
export function registerServerRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, activity } = panel.service;
  app.get('/servers', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    const servers = (await stores.networks.serversOf(staff.networkId)).map((server) => {
      const seen = activity.view(server.id);
      return {
        name: server.name,
        isConnected: seen.openStreams > 0,
        openStreams: seen.openStreams,
        connectedSince: shown(seen.connectedSinceMs),
        disconnectedAt: shown(seen.disconnectedAtMs),
        lastRequest: shown(seen.lastRequestAtMs),
        lastAcknowledgement: shown(seen.lastAcknowledgementAtMs),
      };
    });
    return renderStaffPage(panel, request, reply, 'servers/list', { title: 'Servers', servers });
  });
}
