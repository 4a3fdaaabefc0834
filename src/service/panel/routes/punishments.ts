import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { storedId } from '../../limits.js';
import { pardonPunishment } from '../../punishment-actions.js';
import { fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { refuseOthersPardon, refuseWithoutPardon } from '../pardon-own.js';
import { renderPlayerPage } from '../player-page.js';
import { evidenceForm, pardonForm } from '../punish-form.js';

const idParams = z.object({ id: storedId });
/** The appealable switch of a punishment, as its player page posts it. */
const appealableForm = z.object({ appealable: z.enum(['yes', 'no'], { error: 'must be yes or no' }) });

/**
 * Pardoning and adding evidence, through the same service functions as the API (the stream and
 * webhooks follow as for API calls); each action is written to the audit log.
 */
export function registerPunishmentRoutes(app: FastifyInstance, panel: PanelContext): void {
  const context = panel.service;
  const { stores, clock } = context;

  async function punishmentOfNetwork(request: FastifyRequest) {
    const staff = staffOf(request);
    const params = idParams.safeParse(request.params);
    const row = params.success ? await stores.punishments.find(staff.networkId, params.data.id) : undefined;
    if (!row) throw new HttpError(404, 'no such punishment in this network');
    return { staff, row };
  }

  /** The player page again, the punishment's pardon or evidence form refused with its error (and what was typed). */
  function refuseForm(
    request: FastifyRequest,
    reply: FastifyReply,
    row: { id: string; target_uuid: string },
    form: 'pardon' | 'evidence',
    error: string | undefined,
    typed?: unknown,
  ) {
    const field = `${form}-${row.id}`;
    const refused = { errors: { [field]: error ?? 'invalid' }, values: { [field]: typed } };
    return renderPlayerPage(panel, request, reply, row.target_uuid, refused, 400);
  }

  app.post('/punishments/:id/pardon', { preHandler: requireStaff(panel, null) }, async (request, reply) => {
    refuseWithoutPardon(staffOf(request));
    const { staff, row } = await punishmentOfNetwork(request);
    refuseOthersPardon(staff, row.issuer_name);
    const parsed = pardonForm.safeParse(formBody(request.body));
    if (!parsed.success) {
      return refuseForm(request, reply, row, 'pardon', fieldErrorsOf(parsed.error).reason);
    }
    const changed = await pardonPunishment(context, {
      networkId: staff.networkId,
      id: row.id,
      issuerName: staff.username,
      reason: parsed.data.reason,
      serverId: null,
    });
    if (changed) {
      await stores.auditLog.record({
        networkId: staff.networkId,
        actor: staff.username,
        via: 'panel',
        action: 'punishment.pardon',
        subject: row.id,
        detail: { player: row.target_uuid, reason: parsed.data.reason },
        atMs: clock.now(),
      });
    }
    return reply.redirect(`/panel/players/${row.target_uuid}#punishment-${encodeURIComponent(row.id)}`, 303);
  });

  app.post('/punishments/:id/evidence', { preHandler: requireStaff(panel, 'punish') }, async (request, reply) => {
    const { staff, row } = await punishmentOfNetwork(request);
    const body = formBody(request.body);
    const parsed = evidenceForm.safeParse(body);
    if (!parsed.success) {
      return refuseForm(request, reply, row, 'evidence', fieldErrorsOf(parsed.error).evidenceUrl, body.evidenceUrl);
    }
    const nowMs = clock.now();
    await stores.enforcement.addEvidence(staff.networkId, row.id, staff.username, parsed.data.evidenceUrl, nowMs);
    await stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action: 'punishment.evidence',
      subject: row.id,
      detail: { url: parsed.data.evidenceUrl },
      atMs: nowMs,
    });
    return reply.redirect(`/panel/players/${row.target_uuid}#punishment-${encodeURIComponent(row.id)}`, 303);
  });

  // Staff who decide appeals may rule one out in advance: no appeal code is given for it and the form refuses it.
  app.post(
    '/punishments/:id/appealable',
    { preHandler: requireStaff(panel, 'manage-tickets') },
    async (request, reply) => {
      const { staff, row } = await punishmentOfNetwork(request);
      const parsed = appealableForm.safeParse(formBody(request.body));
      if (!parsed.success)
        throw new HttpError(400, `appealable: ${fieldErrorsOf(parsed.error).appealable ?? 'invalid'}`);
      const nowMs = clock.now();
      const isAppealable = parsed.data.appealable === 'yes';
      const mark = isAppealable ? null : { markedBy: staff.username, markedAtMs: nowMs };
      if (await stores.appeals.setUnappealable(staff.networkId, row.id, mark)) {
        await stores.auditLog.record({
          networkId: staff.networkId,
          actor: staff.username,
          via: 'panel',
          action: isAppealable ? 'punishment.appealable' : 'punishment.unappealable',
          subject: row.id,
          detail: { player: row.target_uuid },
          atMs: nowMs,
        });
      }
      return reply.redirect(`/panel/players/${row.target_uuid}#punishment-${encodeURIComponent(row.id)}`, 303);
    },
  );
}
