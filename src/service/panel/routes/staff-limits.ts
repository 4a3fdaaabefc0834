import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { limitText } from '../../staff/limit-text.js';
import type { RoleLimits } from '../../store/ports/staff-limits.js';
import { refuseEscalation } from '../escalation.js';
import { type FieldErrors, fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import { panelAuditRecorder } from '../panel-audit.js';
import type { PanelContext } from '../panel-context.js';
import { renderStaffPage } from '../render.js';
import { roleLimitsForm } from '../staff-limits-form.js';
import { permissionsOf, roleNamesOf } from '../staff-session.js';

const nameParams = z.object({ name: z.string() });

const shownLength = (ms: number | null) => (ms === null ? '' : limitText(ms));

/**
 * What each role may issue: the longest ban and mute, and punishments an hour
 * (`manage-users`; nobody changes the limits of a role holding more than their own permissions).
 * The service applies them to every punishment from the panel.
 */
export function registerStaffLimitRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;
  const guard = { preHandler: requireStaff(panel, 'manage-users') };
  const audit = panelAuditRecorder(panel.service);

  async function renderLimits(
    request: FastifyRequest,
    reply: FastifyReply,
    refused: { role: string; errors: FieldErrors; values: Record<string, unknown> } | undefined = undefined,
    statusCode = 200,
  ) {
    const staff = staffOf(request);
    const stored = new Map((await stores.staffLimits.list(staff.networkId)).map((limits) => [limits.role, limits]));
    const roles = (await roleNamesOf(stores, staff.networkId)).map((role) => {
      const limits = stored.get(role);
      const typed = refused?.role === role ? refused.values : undefined;
      return {
        name: role,
        errors: refused?.role === role ? refused.errors : {},
        values: {
          banMax: typed?.banMax ?? shownLength(limits?.banMaxMs ?? null),
          muteMax: typed?.muteMax ?? shownLength(limits?.muteMaxMs ?? null),
          hourlyMax: typed?.hourlyMax ?? limits?.hourlyMax ?? '',
        },
      };
    });
    return renderStaffPage(panel, request, reply, 'staff-limits', { title: 'Staff limits', roles }, statusCode);
  }

  app.get('/staff-limits', guard, async (request, reply) => renderLimits(request, reply));

  app.post('/staff-limits/:name', guard, async (request, reply) => {
    const staff = staffOf(request);
    const { name } = nameParams.parse(request.params);
    if (!(await roleNamesOf(stores, staff.networkId)).includes(name)) {
      throw new HttpError(404, `no role named '${name}'`);
    }
    refuseEscalation(
      `change the limits of the role ${name}`,
      await permissionsOf(stores, staff.networkId, name),
      staff.permissions,
    );
    const body = formBody(request.body);
    const parsed = roleLimitsForm.safeParse(body);
    if (!parsed.success) {
      return renderLimits(request, reply, { role: name, errors: fieldErrorsOf(parsed.error), values: body }, 400);
    }
    const limits: RoleLimits = {
      banMaxMs: parsed.data.banMax,
      muteMaxMs: parsed.data.muteMax,
      hourlyMax: parsed.data.hourlyMax,
    };
    await stores.staffLimits.save(staff.networkId, name, limits, clock.now());
    await audit(staff.networkId, staff.username, 'role.limits', name, { ...limits });
    return reply.redirect('/panel/staff-limits', 303);
  });
}
