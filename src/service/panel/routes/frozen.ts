import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_FROZEN_PLAYERS } from '../../../contract/freeze-schemas.js';
import { uuid } from '../../../contract/schemas.js';
import { HttpError } from '../../http/errors.js';
import { requireStaff, staffOf } from '../guard.js';
import { panelAuditRecorder } from '../panel-audit.js';
import type { PanelContext } from '../panel-context.js';
import { shownDate } from '../public/public-rows.js';
import { renderStaffPage } from '../render.js';

const playerParams = z.object({ uuid });

/**
 * The frozen players of the network (`view`), newest first, as every game server holds them; with
 * `pardon`, unfreezing one (game servers let them go at their next poll of the list). Audited.
 */
export function registerFrozenRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores } = panel.service;
  const audit = panelAuditRecorder(panel.service);

  async function renderFrozen(request: FastifyRequest, reply: FastifyReply, notice?: string) {
    const staff = staffOf(request);
    const frozen = (await stores.freezes.list(staff.networkId, MAX_FROZEN_PLAYERS)).map((freeze) => ({
      uuid: freeze.playerUuid,
      name: freeze.playerName,
      reason: freeze.reason,
      issuer: freeze.issuerName,
      server: freeze.serverName,
      frozenAt: shownDate(freeze.frozenAt),
    }));
    return renderStaffPage(panel, request, reply, 'frozen/list', {
      title: 'Frozen players',
      frozen,
      canUnfreeze: staff.permissions.has('pardon'),
      notice,
    });
  }

  app.get('/frozen', { preHandler: requireStaff(panel, 'view') }, (request, reply) => renderFrozen(request, reply));

  app.post('/frozen/:uuid/unfreeze', { preHandler: requireStaff(panel, 'pardon') }, async (request, reply) => {
    const parsed = playerParams.safeParse(request.params);
    if (!parsed.success) throw new HttpError(404, 'no such frozen player in this network');
    const staff = staffOf(request);
    const playerUuid = parsed.data.uuid.toLowerCase();
    const freeze = await stores.freezes.find(staff.networkId, playerUuid);
    if (!freeze || !(await stores.freezes.unfreeze(staff.networkId, playerUuid))) {
      throw new HttpError(404, 'no such frozen player in this network');
    }
    await audit(staff.networkId, staff.username, 'player.unfreeze', playerUuid, { playerName: freeze.playerName });
    return renderFrozen(request, reply, `${freeze.playerName} unfrozen: every server lets them go at its next check`);
  });
}
