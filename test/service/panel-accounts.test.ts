import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JEB, NOTCH } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { PASSWORD, type PanelTestService, startPanelService } from './helpers/panel-service.js';

let t: PanelTestService;
let admin: PanelClient;

beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('boss', 'alpha', 'admin');
  admin = await t.loggedIn('boss');
});
afterAll(() => t.close());

const accountId = async (username: string) => (await t.stores.panelAccounts.findByUsername(username))!.id;

describe('accounts page', () => {
  it('creates an account that can log in, and writes the audit log', async () => {
    const created = await admin.post('/panel/accounts', {
      username: 'newmod',
      role: 'moderator',
      password: 'a long password',
    });
    expect(created.status).toBe(303);
    const page = await admin.get('/panel/accounts');
    expect(page.html).toContain('data-account="newmod"');
    expect((await t.client().login('newmod', 'a long password')).status).toBe(303);
    const audit = await t.stores.auditLog.newest(t.networkId('alpha'), 20);
    expect(audit.find((entry) => entry.action === 'account.create')).toMatchObject({
      actor: 'boss',
      subject: 'newmod',
      detail: { role: 'moderator' },
    });
    expect(JSON.stringify(audit)).not.toContain('a long password');
  });

  it('shows form errors next to their fields', async () => {
    const refused = await admin.post('/panel/accounts', { username: 'bad name!', role: 'nope', password: 'short' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('1 to 64 letters, digits, dots, dashes or underscores');
    expect(refused.html).toContain('must be at least 10 characters');
    const taken = await admin.post('/panel/accounts', {
      username: 'BOSS',
      role: 'viewer',
      password: 'a long password',
    });
    expect(taken.status).toBe(409);
    expect(taken.html).toContain('this username is taken');
  });

  it('changes a role, and the new permissions apply at the next request', async () => {
    await t.addAccount('promoted', 'alpha', 'viewer');
    const client = await t.loggedIn('promoted');
    expect((await client.get('/panel/accounts')).status).toBe(403);
    expect((await admin.post(`/panel/accounts/${await accountId('promoted')}/role`, { role: 'admin' })).status).toBe(
      303,
    );
    expect((await client.get('/panel/accounts')).status).toBe(200);
  });

  it('disables an account (its sessions end) and enables it again', async () => {
    await t.addAccount('suspended', 'alpha', 'viewer');
    const client = await t.loggedIn('suspended');
    const id = await accountId('suspended');
    expect((await admin.post(`/panel/accounts/${id}/disable`)).status).toBe(303);
    expect((await client.get('/panel/')).status).toBe(303);
    expect((await t.client().login('suspended', PASSWORD)).status).toBe(401);
    expect((await admin.post(`/panel/accounts/${id}/enable`)).status).toBe(303);
    expect((await t.client().login('suspended', PASSWORD)).status).toBe(303);
  });

  it('resets a password: the old one stops working and sessions end', async () => {
    await t.addAccount('forgetful', 'alpha', 'viewer');
    const client = await t.loggedIn('forgetful');
    const reset = await admin.post(`/panel/accounts/${await accountId('forgetful')}/password`, {
      password: 'brand new secret',
    });
    expect(reset.status).toBe(200);
    expect(reset.html).toContain('password of forgetful reset');
    expect((await client.get('/panel/')).status).toBe(303);
    expect((await t.client().login('forgetful', PASSWORD)).status).toBe(401);
    expect((await t.client().login('forgetful', 'brand new secret')).status).toBe(303);
  });

  it("cannot change its own account, a superuser, or another network's account", async () => {
    await t.addAccount('root', undefined, 'admin');
    await t.addAccount('betaperson', 'beta', 'viewer');
    expect((await admin.post(`/panel/accounts/${await accountId('boss')}/disable`)).status).toBe(403);
    expect((await admin.post(`/panel/accounts/${await accountId('root')}/disable`)).status).toBe(404);
    expect((await admin.post(`/panel/accounts/${await accountId('betaperson')}/disable`)).status).toBe(404);
    expect((await admin.get('/panel/accounts')).html).not.toContain('betaperson');
  });

  it('shows account names holding markup as text', async () => {
    await t.stores.panelAccounts.create({
      networkId: t.networkId('alpha'),
      username: '"><img src=x onerror=alert(1)>',
      passwordHash: 'x',
      role: 'viewer',
      nowMs: 0,
    });
    const page = await admin.get('/panel/accounts');
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('roles page', () => {
  it('creates a custom role that accounts can hold, with exactly its permissions', async () => {
    const saved = await admin.post('/panel/roles', { name: 'judge', permissions: 'pardon' });
    expect(saved.status).toBe(303);
    await admin.post('/panel/roles', { name: 'judge', permissions: 'view' });
    await t.addAccount('judy', 'alpha', 'judge');
    // The role was replaced by a second save with view only: no pardon.
    const judy = await t.loggedIn('judy');
    expect((await judy.get(`/panel/players/${NOTCH}`)).status).toBe(200);
    expect((await judy.post('/panel/punishments/whatever/pardon')).status).toBe(403);
    expect((await admin.get('/panel/roles')).html).toContain('data-role="judge"');
  });

  it('refuses built-in names and unknown permissions, and deleting a role in use', async () => {
    expect((await admin.post('/panel/roles', { name: 'admin', permissions: 'view' })).html).toContain(
      'a built-in role has this name',
    );
    expect((await admin.post('/panel/roles', { name: 'odd', permissions: 'fly' })).status).toBe(400);
    expect((await admin.post('/panel/roles/judge/delete')).status).toBe(409);
  });
});

/** Every staff route, the permission it needs, and a form that passes the permission check. */
const ROUTES: { method: 'GET' | 'POST'; path: string; permission: string; form?: Record<string, string> }[] = [
  { method: 'GET', path: '/panel/', permission: 'view' },
  { method: 'GET', path: '/panel/live', permission: 'view' },
  { method: 'GET', path: '/panel/players?q=jeb', permission: 'view' },
  { method: 'GET', path: '/panel/players?q=203.0.113.9', permission: 'see-ip' },
  { method: 'GET', path: `/panel/players/${JEB}`, permission: 'view' },
  {
    method: 'POST',
    path: `/panel/players/${JEB}/punish`,
    permission: 'punish',
    form: { typeOrdinal: '0', reason: 'r' },
  },
  { method: 'POST', path: '/panel/punishments/none/pardon', permission: 'pardon' },
  { method: 'POST', path: '/panel/punishments/none/evidence', permission: 'punish' },
  { method: 'POST', path: '/panel/punishments/none/appealable', permission: 'manage-tickets' },
  { method: 'GET', path: '/panel/accounts', permission: 'manage-users' },
  { method: 'POST', path: '/panel/accounts', permission: 'manage-users', form: { username: 'x' } },
  { method: 'POST', path: '/panel/accounts/999/role', permission: 'manage-users' },
  { method: 'POST', path: '/panel/accounts/999/disable', permission: 'manage-users' },
  { method: 'POST', path: '/panel/accounts/999/enable', permission: 'manage-users' },
  { method: 'POST', path: '/panel/accounts/999/password', permission: 'manage-users' },
  { method: 'GET', path: '/panel/roles', permission: 'manage-users' },
  { method: 'POST', path: '/panel/roles', permission: 'manage-users' },
  { method: 'POST', path: '/panel/roles/none/delete', permission: 'manage-users' },
  { method: 'GET', path: '/panel/servers', permission: 'view' },
  { method: 'POST', path: '/panel/servers', permission: 'manage-servers', form: { name: '' } },
  { method: 'POST', path: '/panel/servers/none/rotate', permission: 'manage-servers', form: { grace: '0' } },
  { method: 'POST', path: '/panel/servers/none/remove', permission: 'manage-servers' },
  { method: 'POST', path: '/panel/migration/none/cancel', permission: 'migrate' },
  { method: 'GET', path: '/panel/ladder', permission: 'view' },
  { method: 'POST', path: '/panel/ladder', permission: 'manage-users', form: { name: 'x' } },
  { method: 'POST', path: '/panel/ladder/remove', permission: 'manage-users' },
  { method: 'POST', path: '/panel/tickets/bulk', permission: 'manage-tickets', form: { action: 'close' } },
  { method: 'GET', path: '/panel/frozen', permission: 'view' },
  { method: 'POST', path: '/panel/frozen/00000000-0000-4000-8000-000000000000/unfreeze', permission: 'pardon' },
  { method: 'GET', path: '/panel/staff-limits', permission: 'manage-users' },
  { method: 'POST', path: '/panel/staff-limits/none', permission: 'manage-users' },
  // Rollback needs pardon too; every role holding manage-users here holds it.
  { method: 'GET', path: '/panel/rollback', permission: 'manage-users' },
  { method: 'POST', path: '/panel/rollback', permission: 'manage-users' },
  { method: 'POST', path: `/panel/players/${JEB}/notes`, permission: 'punish', form: { text: 'n' } },
  { method: 'POST', path: '/panel/punishments/none/comments', permission: 'punish', form: { text: 'c' } },
  { method: 'POST', path: '/panel/notes/999/edit', permission: 'view', form: { text: 'e' } },
  { method: 'POST', path: '/panel/notes/999/delete', permission: 'view' },
];
const ROLE_PERMISSIONS: Record<string, string[]> = {
  admin: [
    'view',
    'punish',
    'pardon',
    'see-ip',
    'manage-tickets',
    'manage-users',
    'manage-servers',
    'migrate',
    'pardon-own',
    'manage-notes',
    'view-chat-log',
  ],
  moderator: ['view', 'punish', 'pardon', 'see-ip', 'manage-tickets', 'view-chat-log'],
  helper: ['view', 'punish', 'manage-tickets'],
  viewer: ['view'],
};

describe('every staff route checks its permission on the server, for every role', () => {
  it.each(Object.keys(ROLE_PERMISSIONS))('%s', async (role) => {
    await t.addAccount(`matrix-${role}`, 'alpha', role);
    const client = await t.loggedIn(`matrix-${role}`);
    const outcomes: string[] = [];
    for (const route of ROUTES) {
      let status: number;
      if (route.path === '/panel/live') {
        const response = await fetch(`${t.service.url}${route.path}`, {
          headers: { cookie: `bailiff_panel=${client.cookie('bailiff_panel')}` },
          redirect: 'manual',
        });
        status = response.status;
        await response.body?.cancel();
      } else {
        status = (route.method === 'GET' ? await client.get(route.path) : await client.post(route.path, route.form))
          .status;
      }
      const allowed = ROLE_PERMISSIONS[role]!.includes(route.permission);
      outcomes.push(
        `${route.method} ${route.path}: ${allowed ? (status === 403 || status === 401 ? 'REFUSED' : 'ok') : status}`,
      );
    }
    expect(outcomes).toEqual(
      ROUTES.map(
        (route) => `${route.method} ${route.path}: ${ROLE_PERMISSIONS[role]!.includes(route.permission) ? 'ok' : 403}`,
      ),
    );
  });

  it('without a session every route sends to the login page (reads) or refuses (writes)', async () => {
    const anonymous = t.client();
    for (const route of ROUTES.filter((route) => route.path !== '/panel/live')) {
      const page =
        route.method === 'GET' ? await anonymous.get(route.path) : await anonymous.post(route.path, route.form);
      expect({ route: route.path, status: page.status }).toEqual({
        route: route.path,
        status: route.method === 'GET' ? 303 : 401,
      });
    }
  });
});
