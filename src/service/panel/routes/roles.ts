import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { type FieldErrors, fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { BUILT_IN_ROLES, builtInRole, isPermission, PERMISSION_DESCRIPTIONS, PERMISSIONS } from '../permissions.js';
import { renderStaffPage } from '../render.js';

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

/** Built-in and custom roles; custom ones created, changed and deleted (`manage-users`). */
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
    return renderStaffPage(
      panel,
      request,
      reply,
      'roles',
      {
        title: 'Roles',
        roles: [
          ...BUILT_IN_ROLES.map((role) => ({ name: role.name, permissions: [...role.permissions], builtIn: true })),
          ...custom.map((role) => ({ name: role.name, permissions: role.permissions, builtIn: false })),
        ],
        allPermissions: PERMISSIONS.map((name) => ({ name, description: PERMISSION_DESCRIPTIONS[name] })),
        errors: extra.errors ?? {},
        values: extra.values ?? {},
      },
      statusCode,
    );
  }

  app.get('/roles', guard, async (request, reply) => renderRoles(request, reply));

  app.post('/roles', guard, async (request, reply) => {
    const staff = staffOf(request);
    const body = formBody(request.body);
    const parsed = roleForm.safeParse(body);
    if (!parsed.success) {
      return renderRoles(request, reply, { errors: fieldErrorsOf(parsed.error), values: { name: body.name } }, 400);
    }
    await stores.panelRoles.save(staff.networkId, parsed.data, clock.now());
    await stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action: 'role.save',
      subject: parsed.data.name,
      detail: { permissions: parsed.data.permissions },
      atMs: clock.now(),
    });
    return reply.redirect('/panel/roles', 303);
  });

  app.post('/roles/:name/delete', guard, async (request, reply) => {
    const staff = staffOf(request);
    const { name } = nameParams.parse(request.params);
    if (!(await stores.panelRoles.find(staff.networkId, name)))
      throw new HttpError(404, `no custom role named '${name}'`);
    const holders = await stores.panelAccounts.countWithRole(staff.networkId, name);
    if (holders > 0) throw new HttpError(409, `${holders} account(s) have the role '${name}': give them another first`);
    await stores.panelRoles.remove(staff.networkId, name);
    await stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action: 'role.delete',
      subject: name,
      atMs: clock.now(),
    });
    return reply.redirect('/panel/roles', 303);
  });
}
