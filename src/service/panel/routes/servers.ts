import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { type ManagementActor, ServerManagement } from '../../servers/manage-servers.js';
import { parseGrace } from '../../servers/server-key.js';
import { ServerManagementError } from '../../servers/server-management-error.js';
import { formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { shownDate } from '../public/public-rows.js';
import { renderStaffPage } from '../render.js';

const shown = (ms: number | null) => (ms === null ? null : shownDate(ms));

/** The grace periods the rotate form offers (the same words the CLI takes). */
export const GRACE_CHOICES = [
  { value: '0', label: 'refuse the old key now' },
  { value: '10m', label: 'old key valid 10 more minutes' },
  { value: '1h', label: 'old key valid 1 more hour' },
  { value: '24h', label: 'old key valid 24 more hours' },
  { value: '7d', label: 'old key valid 7 more days' },
] as const;

const nameParams = z.object({ name: z.string().min(1).max(256) });
const addForm = z.object({ name: z.string().trim() });
const rotateForm = z.object({ grace: z.string() });

/** A key shown once, in the answer that made it. */
interface ShownKey {
  server: string;
  apiKey: string;
  oldKeyValidUntil?: string | null;
}

/**
 * The servers page: each game server of the network as the service sees it now (`view`); with
 * `manage-servers`, adding a server (its key shown once), rotating its key with a grace period and
 * removing it. Every change is checked on the server, carries the CSRF token and is audited.
 */
export function registerServerRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { activity, storage, clock } = panel.service;
  const management = panel.settings.servers ?? new ServerManagement({ storage, clock });
  const manage = { preHandler: requireStaff(panel, 'manage-servers') };

  async function renderServers(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { shownKey?: ShownKey; notice?: string; error?: string; values?: Record<string, unknown> } = {},
    statusCode = 200,
  ) {
    const staff = staffOf(request);
    const servers = (await management.listServers(staff.networkId)).map((server) => {
      const seen = activity.view(server.id);
      return {
        name: server.name,
        isConnected: seen.openStreams > 0,
        openStreams: seen.openStreams,
        connectedSince: shown(seen.connectedSinceMs),
        disconnectedAt: shown(seen.disconnectedAtMs),
        lastRequest: shown(seen.lastRequestAtMs),
        lastAcknowledgement: shown(seen.lastAcknowledgementAtMs),
        keySetAt: shown(server.keySetAt),
        oldKeysValidUntil: server.retiredKeysValidUntil.map((until) => shownDate(until)),
      };
    });
    return renderStaffPage(
      panel,
      request,
      reply,
      'servers/list',
      {
        title: 'Servers',
        servers,
        canManage: staff.permissions.has('manage-servers'),
        graceChoices: GRACE_CHOICES,
        shownKey: extra.shownKey,
        notice: extra.notice,
        error: extra.error,
        values: extra.values ?? {},
      },
      statusCode,
    );
  }

  const actorOf = (request: FastifyRequest): ManagementActor => ({ actor: staffOf(request).username, via: 'panel' });

  /** Renders a refused change next to the form, with the status the admin API would answer. */
  async function refused(request: FastifyRequest, reply: FastifyReply, work: () => Promise<FastifyReply>, values = {}) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ServerManagementError)) throw error;
      return renderServers(request, reply, { error: error.message, values }, error.status);
    }
  }

  const serverName = (request: FastifyRequest) => {
    const parsed = nameParams.safeParse(request.params);
    if (!parsed.success) throw new HttpError(404, 'no such server in this network');
    return parsed.data.name;
  };

  app.get('/servers', { preHandler: requireStaff(panel, 'view') }, async (request, reply) =>
    renderServers(request, reply),
  );

  app.post('/servers', manage, async (request, reply) => {
    const { name } = addForm.parse({ name: String(formBody(request.body).name ?? '') });
    return refused(
      request,
      reply,
      async () => {
        const added = await management.addServer(staffOf(request).networkId, name, actorOf(request));
        return renderServers(request, reply, { shownKey: { server: added.name, apiKey: added.apiKey } });
      },
      { name },
    );
  });

  app.post('/servers/:name/rotate', manage, async (request, reply) => {
    const name = serverName(request);
    const { grace } = rotateForm.parse({ grace: String(formBody(request.body).grace ?? '') });
    return refused(request, reply, async () => {
      const rotated = await management.rotateKey(staffOf(request).networkId, name, parseGrace(grace), actorOf(request));
      const oldKeyValidUntil = rotated.oldKeyValidUntilMs === null ? null : shownDate(rotated.oldKeyValidUntilMs);
      return renderServers(request, reply, { shownKey: { server: name, apiKey: rotated.apiKey, oldKeyValidUntil } });
    });
  });

  app.post('/servers/:name/remove', manage, async (request, reply) => {
    const name = serverName(request);
    return refused(request, reply, async () => {
      await management.removeServer(staffOf(request).networkId, name, actorOf(request));
      return renderServers(request, reply, { notice: `server ${name} removed: its keys are refused from now on` });
    });
  });
}
