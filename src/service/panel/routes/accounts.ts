import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { USERNAME_PATTERN } from '../create-admin.js';
import { isWithin, permissionsBeyond, refuseEscalation } from '../escalation.js';
import { type FieldErrors, fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import { panelAuditRecorder } from '../panel-audit.js';
import type { PanelContext } from '../panel-context.js';
import { hashPassword, passwordProblem } from '../passwords.js';
import { builtInRole } from '../permissions.js';
import { renderStaffPage } from '../render.js';
import { permissionsOf, roleNamesOf } from '../staff-session.js';

const password = z.string().superRefine((value, context) => {
  const problem = passwordProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
const username = z.string().trim().regex(USERNAME_PATTERN, '1 to 64 letters, digits, dots, dashes or underscores');
const createForm = z.object({ username, role: z.string().min(1, 'choose a role'), password });
const roleForm = z.object({ role: z.string().min(1, 'choose a role') });
const passwordForm = z.object({ password });
const idParams = z.object({ id: z.coerce.number().int().positive() });

/**
 * Staff accounts of the network: create, change role, disable or enable, reset password or
 * two-factor (`manage-users`). Nobody creates, assigns or manages anything holding a permission
 * they do not hold themselves (escalation.ts). Ending an account's sessions, or changing its
 * role, closes its live feeds on every instance.
 */
export function registerAccountRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;
  const guard = { preHandler: requireStaff(panel, 'manage-users') };

  async function renderAccounts(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: FieldErrors; values?: Record<string, unknown>; notice?: string } = {},
    statusCode = 200,
  ) {
    const staff = staffOf(request);
    const accounts = await stores.panelAccounts.ofNetworkAndSuperusers(staff.networkId);
    const roles = await roleNamesOf(stores, staff.networkId);
    const withinOwn = new Map<string, boolean>();
    for (const role of new Set([...roles, ...accounts.map((account) => account.role)])) {
      withinOwn.set(role, isWithin(await permissionsOf(stores, staff.networkId, role), staff.permissions));
    }
    return renderStaffPage(
      panel,
      request,
      reply,
      'accounts',
      {
        title: 'Accounts',
        accounts: accounts.map((account) => ({
          id: account.id,
          username: account.username,
          role: account.networkId === null ? 'superuser' : account.role,
          isSuperuser: account.networkId === null,
          isSelf: account.id === staff.accountId,
          isBeyondOwn: account.networkId !== null && withinOwn.get(account.role) !== true,
          disabled: account.disabled,
          twoFactorEnabled: account.twoFactorEnabled,
          createdAt: new Date(account.createdAt).toISOString(),
        })),
        roles: roles.filter((role) => withinOwn.get(role)),
        errors: extra.errors ?? {},
        values: extra.values ?? {},
        notice: extra.notice,
      },
      statusCode,
    );
  }

  /**
   * An account this staff member may change: one of their network's, not their own, not a
   * superuser, holding no permission beyond their own.
   */
  async function manageable(request: FastifyRequest) {
    const staff = staffOf(request);
    const parsed = idParams.safeParse(request.params);
    const account = parsed.success ? await stores.panelAccounts.find(parsed.data.id) : undefined;
    if (!account || account.networkId !== staff.networkId) throw new HttpError(404, 'no such account in this network');
    if (account.id === staff.accountId) throw new HttpError(403, 'you cannot change your own account here');
    refuseEscalation(
      `change ${account.username}, whose role is ${account.role}`,
      await permissionsOf(stores, staff.networkId, account.role),
      staff.permissions,
    );
    return { staff, account };
  }

  // By name, not from the roles page's list: a network may have more custom roles than it lists.
  async function checkRole(networkId: number, role: string): Promise<string | undefined> {
    const exists = builtInRole(role) !== undefined || (await stores.panelRoles.find(networkId, role)) !== undefined;
    return exists ? undefined : `no role named '${role}'`;
  }

  /** Every session of the account ends, and with them its live feeds on every instance. */
  async function endSessions(accountId: number) {
    await stores.panelSessions.removeAllOf(accountId);
    await panel.staffSignals.send({ kind: 'account', accountId });
  }

  const audit = panelAuditRecorder(panel.service);

  app.get('/accounts', guard, async (request, reply) => renderAccounts(request, reply));

  app.post('/accounts', guard, async (request, reply) => {
    const staff = staffOf(request);
    const body = formBody(request.body);
    const values = { username: body.username, role: body.role };
    const parsed = createForm.safeParse(body);
    if (!parsed.success) return renderAccounts(request, reply, { errors: fieldErrorsOf(parsed.error), values }, 400);
    const roleProblem = await checkRole(staff.networkId, parsed.data.role);
    if (roleProblem) return renderAccounts(request, reply, { errors: { role: roleProblem }, values }, 400);
    const beyond = permissionsBeyond(await permissionsOf(stores, staff.networkId, parsed.data.role), staff.permissions);
    if (beyond.length > 0) {
      const problem = `the role ${parsed.data.role} holds permissions your role does not (${beyond.join(', ')})`;
      return renderAccounts(request, reply, { errors: { role: problem }, values }, 403);
    }
    const id = await stores.panelAccounts.create({
      networkId: staff.networkId,
      username: parsed.data.username,
      passwordHash: await hashPassword(parsed.data.password),
      role: parsed.data.role,
      nowMs: clock.now(),
    });
    if (id === undefined) {
      return renderAccounts(request, reply, { errors: { username: 'this username is taken' }, values }, 409);
    }
    await audit(staff.networkId, staff.username, 'account.create', parsed.data.username, { role: parsed.data.role });
    return reply.redirect('/panel/accounts', 303);
  });

  app.post('/accounts/:id/role', guard, async (request, reply) => {
    const { staff, account } = await manageable(request);
    const parsed = roleForm.safeParse(formBody(request.body));
    const problem = parsed.success ? await checkRole(staff.networkId, parsed.data.role) : 'choose a role';
    if (!parsed.success || problem) throw new HttpError(400, `role: ${problem}`);
    refuseEscalation(
      `give the role ${parsed.data.role}`,
      await permissionsOf(stores, staff.networkId, parsed.data.role),
      staff.permissions,
    );
    await stores.panelAccounts.setRole(account.id, parsed.data.role, clock.now());
    await panel.staffSignals.send({ kind: 'account', accountId: account.id });
    await audit(staff.networkId, staff.username, 'account.role', account.username, {
      from: account.role,
      to: parsed.data.role,
    });
    return reply.redirect('/panel/accounts', 303);
  });

  for (const [path, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(`/accounts/:id/${path}`, guard, async (request, reply) => {
      const { staff, account } = await manageable(request);
      await stores.panelAccounts.setDisabled(account.id, disabled, clock.now());
      if (disabled) await endSessions(account.id);
      await audit(staff.networkId, staff.username, `account.${path}`, account.username);
      return reply.redirect('/panel/accounts', 303);
    });
  }

  app.post('/accounts/:id/password', guard, async (request, reply) => {
    const { staff, account } = await manageable(request);
    const parsed = passwordForm.safeParse(formBody(request.body));
    if (!parsed.success) {
      return renderAccounts(
        request,
        reply,
        { errors: { [`password-${account.id}`]: fieldErrorsOf(parsed.error).password! } },
        400,
      );
    }
    await stores.panelAccounts.setPassword(account.id, await hashPassword(parsed.data.password), clock.now());
    await endSessions(account.id);
    await audit(staff.networkId, staff.username, 'account.password-reset', account.username);
    return renderAccounts(request, reply, { notice: `password of ${account.username} reset; their sessions ended` });
  });

  app.post('/accounts/:id/two-factor/reset', guard, async (request, reply) => {
    const { staff, account } = await manageable(request);
    if (!account.twoFactorEnabled) throw new HttpError(409, `${account.username} has no two-factor to reset`);
    await stores.panelAccounts.clearTotp(account.id, clock.now());
    await stores.panelRecoveryCodes.removeAllOf(account.id);
    await endSessions(account.id);
    await audit(staff.networkId, staff.username, 'account.two-factor-reset', account.username);
    return renderAccounts(request, reply, {
      notice: `two-factor of ${account.username} reset; their sessions ended and their next login sets it up again if their role requires it`,
    });
  });
}
