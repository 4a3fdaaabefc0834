import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { listRollback, type RollbackRange, runRollback } from '../../staff/rollback.js';
import { toIso } from '../../store/dates.js';
import { fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { visitorInput } from '../redact-addresses.js';
import { renderStaffPage } from '../render.js';
import type { Staff } from '../staff-session.js';

/** `2026-11-28T04:00` (a datetime-local field) or a full ISO time; a time without a zone is UTC. */
const instant = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .transform((text, ctx) => {
      const withZone = /(Z|[+-]\d\d:\d\d)$/.test(text) ? text : `${text}Z`;
      const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text) ? Date.parse(withZone) : Number.NaN;
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a time like 2026-11-28T04:00 (UTC)` });
        return z.NEVER;
      }
      return ms;
    });

const rollbackForm = z
  .object({
    issuer: z.string({ error: 'the staff member is required' }).trim().min(1, 'the staff member is required').max(64),
    from: instant('from'),
    to: instant('to'),
    reason: z.string().trim().min(1, 'a reason is required: the players are told it').max(500),
    step: z.enum(['preview', 'run']).default('preview'),
  })
  .refine((form) => form.from <= form.to, { path: ['to'], message: 'must not be before from' });

/** Rollback pardons anyone's punishments in bulk: it takes both managing staff and pardoning. */
function refuseWithoutPardon(staff: Staff): void {
  if (!staff.permissions.has('pardon')) {
    throw new HttpError(403, `your role (${staff.role}) does not have the "pardon" permission, which rollback needs`);
  }
}

/**
 * Rollback (`manage-users` and `pardon`): every punishment one staff account or in-game name issued in a time range
 * is listed (the dry run), then pardoned with a reason; each pardon and the rollback are audited
 * and players are told as for any pardon.
 */
export function registerRollbackRoutes(app: FastifyInstance, panel: PanelContext): void {
  const context = panel.service;
  const guard = { preHandler: requireStaff(panel, 'manage-users') };

  app.get('/rollback', guard, async (request, reply) => {
    refuseWithoutPardon(staffOf(request));
    return renderStaffPage(panel, request, reply, 'rollback', { title: 'Rollback', values: {}, errors: {} });
  });

  app.post('/rollback', guard, async (request, reply) => {
    const staff = staffOf(request);
    refuseWithoutPardon(staff);
    const body = formBody(request.body);
    const parsed = rollbackForm.safeParse(body);
    const values = visitorInput({
      issuer: String(body.issuer ?? ''),
      from: String(body.from ?? ''),
      to: String(body.to ?? ''),
      reason: String(body.reason ?? ''),
    });
    if (!parsed.success) {
      const page = { title: 'Rollback', values, errors: fieldErrorsOf(parsed.error) };
      return renderStaffPage(panel, request, reply, 'rollback', page, 400);
    }
    const form = parsed.data;
    const range: RollbackRange = {
      networkId: staff.networkId,
      issuerName: form.issuer,
      fromMs: form.from,
      toMs: form.to,
    };
    if (form.step === 'run') {
      const pardoned = await runRollback(context, range, { actor: staff.username, reason: form.reason });
      return renderStaffPage(panel, request, reply, 'rollback', {
        title: 'Rollback',
        values,
        errors: {},
        done: { count: pardoned.length, issuer: form.issuer },
      });
    }
    const listing = await listRollback(context, range);
    const revertible = new Set(listing.revertible);
    return renderStaffPage(panel, request, reply, 'rollback', {
      title: 'Rollback',
      values,
      errors: {},
      listing: {
        issuer: form.issuer,
        count: listing.revertible.length,
        rows: listing.issued.map((punishment) => ({
          id: punishment.id,
          targetUuid: punishment.targetUuid,
          targetName: punishment.targetName,
          type:
            context.rules.types.find((type) => type.ordinal === punishment.typeOrdinal)?.title ??
            `type ${punishment.typeOrdinal}`,
          reason: punishment.reason,
          status: punishment.status,
          createdAt: toIso(punishment.createdAt),
          isRevertible: revertible.has(punishment.id),
        })),
      },
    });
  });
}
