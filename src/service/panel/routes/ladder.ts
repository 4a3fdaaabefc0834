import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ladderOfInput, ladderView } from '../../ladders/ladder-input.js';
import { formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import {
  type LadderFormErrors,
  type LadderFormValues,
  ladderFormOf,
  ladderFormValues,
  ladderOfForm,
  ladderStepsView,
  withSpareRows,
} from '../ladder-form.js';
import type { PanelContext } from '../panel-context.js';
import { shownDate } from '../public/public-rows.js';
import { visitorInput } from '../redact-addresses.js';
import { renderStaffPage } from '../render.js';

/**
 * The warning ladder page: the network's ladder (`view`); with `manage-users` (who shape what staff may do), setting it (the
 * admin API's checks, refusals naming the field) and removing it, each audited.
 */
export function registerLadderRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;
  const manage = { preHandler: requireStaff(panel, 'manage-users') };

  async function renderLadder(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { values?: LadderFormValues; errors?: LadderFormErrors; notice?: string } = {},
    statusCode = 200,
  ) {
    const staff = staffOf(request);
    const ladder = await stores.warningLadders.ladderOf(staff.networkId);
    const values = extra.values ? { ...extra.values, rows: withSpareRows(extra.values.rows) } : ladderFormOf(ladder);
    return renderStaffPage(
      panel,
      request,
      reply,
      'ladder',
      {
        title: 'Warning ladder',
        ladder: ladder && {
          name: ladder.name,
          lifetimeDays: Math.round(ladder.warningLifetimeMs / 86_400_000),
          steps: ladderStepsView(ladder),
          updatedAt: shownDate(ladder.updatedAt),
        },
        canManage: staff.permissions.has('manage-users'),
        values: extra.values ? visitorInput(values) : values,
        errors: extra.errors ?? { summary: '', fields: {} },
        notice: extra.notice,
      },
      statusCode,
    );
  }

  app.get('/ladder', { preHandler: requireStaff(panel, 'view') }, (request, reply) => renderLadder(request, reply));

  app.post('/ladder', manage, async (request, reply) => {
    const staff = staffOf(request);
    const values = ladderFormValues(formBody(request.body));
    const outcome = ladderOfForm(values);
    if ('errors' in outcome) return renderLadder(request, reply, { values, errors: outcome.errors }, 400);
    const nowMs = clock.now();
    const ladder = ladderOfInput(outcome.input, nowMs);
    await panel.service.storage.transaction(async (stores) => {
      await stores.warningLadders.replace(staff.networkId, ladder);
      const view = ladderView(ladder);
      await stores.auditLog.record({
        networkId: staff.networkId,
        actor: staff.username,
        via: 'panel',
        action: 'ladder.set',
        subject: ladder.name,
        detail: { warningLifetimeDays: view.warningLifetimeDays, steps: view.steps },
        atMs: nowMs,
      });
    });
    return renderLadder(request, reply, { notice: 'Warning ladder saved: it applies from the next warning.' });
  });

  app.post('/ladder/remove', manage, async (request, reply) => {
    const staff = staffOf(request);
    const nowMs = clock.now();
    const removed = await panel.service.storage.transaction(async (stores) => {
      if (!(await stores.warningLadders.remove(staff.networkId))) return false;
      await stores.auditLog.record({
        networkId: staff.networkId,
        actor: staff.username,
        via: 'panel',
        action: 'ladder.remove',
        subject: 'ladder',
        atMs: nowMs,
      });
      return true;
    });
    const notice = removed ? 'Warning ladder removed: warnings no longer escalate.' : 'There was no ladder to remove.';
    return renderLadder(request, reply, { notice });
  });
}
