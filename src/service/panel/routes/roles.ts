import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { immunityWeight } from '../../../contract/immunity.js';
import { HttpError } from '../../http/errors.js';
import { isWithin, refuseEscalation } from '../escalation.js';
import { type FieldErrors, fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import { panelAuditRecorder } from '../panel-audit.js';
import type { PanelContext } from '../panel-context.js';
import {
  BUILT_IN_ROLES,
  builtInRole,
  isPermission,
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  SUPERUSER_ROLE,
} from '../permissions.js';
import { renderStaffPage } from '../render.js';
import { permissionsOf, roleNamesOf } from '../staff-session.js';

const roleName = z
  .string()
  .trim()
  .regex(/^[a-z0-9-]{1,32}$/, '1 to 32 lower-case letters, digits or dashes')
  .refine((name) => !builtInRole(name), 'a built-in role has this name');
const roleForm = z.object({
  name: roleName,
  permissions: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
    .refine((values) => values.every(isPermission), 'unknown permission'),
});
const nameParams = z.object({ name: z.string() });
const twoFactorForm = z.object({ required: z.enum(['yes', 'no'], { message: "required: 'yes' or 'no'" }) });
const weightForm = z.object({ weight: z.coerce.number({ message: 'weight: must be a number' }).pipe(immunityWeight) });

/**
 * Built-in and custom roles; custom ones created, changed and deleted, and any role's two-factor
 * requirement (`manage-users`). Nobody creates or changes a role holding a permission they do
 * not hold themselves (escalation.ts). A change closes the holders' live feeds on every instance.
 */
export function registerRoleRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;
  const guard = { preHandler: requireStaff(panel, 'manage-users') };

  async function renderRoles(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: FieldErrors; values?: { name?: unknown } } = {},
    statusCode = 200,
  ) {
    const staff = staffOf(request);
    const custom = await stores.panelRoles.list(staff.networkId);
    const requiring = new Set(await stores.panelRoles.twoFactorRoles(staff.networkId));
    const weights = new Map((await stores.immunity.roleWeights(staff.networkId)).map((row) => [row.role, row.weight]));
    const row = (name: string, permissions: readonly string[], builtIn: boolean) => ({
      name,
      permissions: [...permissions],
      builtIn,
      twoFactorRequired: requiring.has(name),
      weight: weights.get(name) ?? 0,
      isWithinOwn: isWithin(permissions, staff.permissions),
    });
    return renderStaffPage(
      panel,
      request,
      reply,
      'roles',
      {
        title: 'Roles',
        roles: [
          ...BUILT_IN_ROLES.map((role) => row(role.name, role.permissions, true)),
          ...custom.map((role) => row(role.name, role.permissions.filter(isPermission), false)),
        ],
        allPermissions: PERMISSIONS.map((name) => ({
          name,
          description: PERMISSION_DESCRIPTIONS[name],
          isHeld: staff.permissions.has(name),
        })),
        errors: extra.errors ?? {},
        values: extra.values ?? {},
      },
      statusCode,
    );
  }

  const audit = panelAuditRecorder(panel.service);

  app.get('/roles', guard, async (request, reply) => renderRoles(request, reply));

  app.post('/roles', guard, async (request, reply) => {
    const staff = staffOf(request);
    const body = formBody(request.body);
    const parsed = roleForm.safeParse(body);
    if (!parsed.success) {
      return renderRoles(request, reply, { errors: fieldErrorsOf(parsed.error), values: { name: body.name } }, 400);
    }
    const existing = await stores.panelRoles.find(staff.networkId, parsed.data.name);
    if (existing) refuseEscalation(`change the role ${existing.name}`, existing.permissions, staff.permissions);
    refuseEscalation(`give a role ${parsed.data.permissions.join(', ')}`, parsed.data.permissions, staff.permissions);
    await stores.panelRoles.save(staff.networkId, parsed.data, clock.now());
    await panel.staffSignals.send({ kind: 'role', networkId: staff.networkId, role: parsed.data.name });
    await audit(staff.networkId, staff.username, 'role.save', parsed.data.name, {
      permissions: parsed.data.permissions,
    });
    return reply.redirect('/panel/roles', 303);
  });

  app.post('/roles/:name/delete', guard, async (request, reply) => {
    const staff = staffOf(request);
    const { name } = nameParams.parse(request.params);
    const role = await stores.panelRoles.find(staff.networkId, name);
    if (!role) throw new HttpError(404, `no custom role named '${name}'`);
    refuseEscalation(`delete the role ${name}`, role.permissions, staff.permissions);
    const holders = await stores.panelAccounts.countWithRole(staff.networkId, name);
    if (holders > 0) throw new HttpError(409, `${holders} account(s) have the role '${name}': give them another first`);
    await stores.panelRoles.remove(staff.networkId, name);
    await stores.immunity.saveRoleWeight(staff.networkId, name, 0, clock.now());
    await audit(staff.networkId, staff.username, 'role.delete', name);
    return reply.redirect('/panel/roles', 303);
  });

  app.post('/roles/:name/two-factor', guard, async (request, reply) => {
    const staff = staffOf(request);
    const { name } = nameParams.parse(request.params);
    if (!(await roleNamesOf(stores, staff.networkId)).includes(name))
      throw new HttpError(404, `no role named '${name}'`);
    const parsed = twoFactorForm.safeParse(formBody(request.body));
    if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]!.message);
    refuseEscalation(
      `change the two-factor rule of the role ${name}`,
      await permissionsOf(stores, staff.networkId, name),
      staff.permissions,
    );
    const required = parsed.data.required === 'yes';
    await stores.panelRoles.setTwoFactorRequired(staff.networkId, name, required, clock.now());
    await panel.staffSignals.send({ kind: 'role', networkId: staff.networkId, role: name });
    await audit(staff.networkId, staff.username, 'role.two-factor', name, { required });
    return reply.redirect('/panel/roles', 303);
  });

  // Immunity: only a higher weight punishes a player; nobody but the superuser role raises a role above their own.
  app.post('/roles/:name/weight', guard, async (request, reply) => {
    const staff = staffOf(request);
    const { name } = nameParams.parse(request.params);
    if (!(await roleNamesOf(stores, staff.networkId)).includes(name))
      throw new HttpError(404, `no role named '${name}'`);
    const parsed = weightForm.safeParse(formBody(request.body));
    if (!parsed.success)
      throw new HttpError(400, `weight: ${parsed.error.issues[0]!.message.replace(/^weight: /, '')}`);
    refuseEscalation(
      `change the weight of the role ${name}`,
      await permissionsOf(stores, staff.networkId, name),
      staff.permissions,
    );
    const { weight } = parsed.data;
    const ownWeight = await stores.immunity.roleWeight(staff.networkId, staff.role);
    if (staff.role !== SUPERUSER_ROLE && weight > ownWeight) {
      throw new HttpError(
        403,
        `you cannot give a role weight ${weight}: your role (${staff.role}) has weight ${ownWeight}`,
      );
    }
    await stores.immunity.saveRoleWeight(staff.networkId, name, weight, clock.now());
    await audit(staff.networkId, staff.username, 'role.weight', name, { weight });
    return reply.redirect('/panel/roles', 303);
  });
}
