import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWithin, permissionsBeyond } from '../../src/service/panel/escalation.js';
import { PERMISSIONS, type Permission } from '../../src/service/panel/permissions.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

/**
 * Issue 32, point 8: no role grants more than its manager holds. A manager may create, edit,
 * assign or manage a role or account only when everything it holds is among the manager's own
 * permissions: the rule checked for every set held against the sets next to it; through the routes, a sample of
 * manager sets in which every permission is both held and tried, and route by route every permission.
 */
let t: PanelTestService;
const PASSWORD = 'a long enough password';
const onlyRole = (permission: Permission) => `only-${permission}`;
const setRole = (mask: number) => `set-${mask}`;
const permissionsOfMask = (mask: number) => PERMISSIONS.filter((_, bit) => (mask & (1 << bit)) !== 0);
const ALL_MASKS = Array.from({ length: 1 << PERMISSIONS.length }, (_, mask) => mask);
const MANAGE_USERS_BIT = 1 << PERMISSIONS.indexOf('manage-users');
const ALL_BITS = (1 << PERMISSIONS.length) - 1;
const bitOf = (permission: Permission) => 1 << PERMISSIONS.indexOf(permission);
const OTHERS = PERMISSIONS.filter((permission) => permission !== 'manage-users');
/**
 * The manager sets tried through the routes: a sample, not every set (the rule itself is checked
 * for every pair above). Each permission is, in some case, the one more a manager tries to grant
 * (manage-users alone; all but it) and one the manager holds (with manage-users alone; all), so a
 * route missing the check of any one permission fails a case.
 */
const MANAGER_MASKS = [
  ...new Set([
    MANAGE_USERS_BIT,
    ALL_BITS,
    ...OTHERS.map((permission) => MANAGE_USERS_BIT | bitOf(permission)),
    ...OTHERS.map((permission) => ALL_BITS & ~bitOf(permission)),
    // Two mixed sets: the even and the odd permissions.
    ...[0, 1].map((parity) =>
      OTHERS.reduce((mask, p, i) => (i % 2 === parity ? mask | bitOf(p) : mask), MANAGE_USERS_BIT),
    ),
  ]),
];
const idOf = async (username: string) => (await t.stores.panelAccounts.findByUsername(username))!.id;
const alpha = () => t.networkId('alpha');

beforeAll(async () => {
  t = await startPanelService();
  await t.stores.panelRoles.save(alpha(), { name: 'nothing', permissions: [] }, 0);
  for (const permission of PERMISSIONS) {
    await t.stores.panelRoles.save(alpha(), { name: onlyRole(permission), permissions: [permission] }, 0);
  }
  // Each sampled set, and each set one permission beyond it (what its manager tries to grant).
  const roleMasks = new Set(MANAGER_MASKS.flatMap((mask) => [mask, ...PERMISSIONS.map((p) => mask | bitOf(p))]));
  for (const mask of roleMasks) {
    await t.stores.panelRoles.save(alpha(), { name: setRole(mask), permissions: permissionsOfMask(mask) }, 0);
  }
  for (const mask of MANAGER_MASKS) {
    await t.addAccount(`manager-${mask}`, 'alpha', setRole(mask));
    await t.addAccount(`target-${mask}`, 'alpha', 'nothing');
  }
}, 120_000);
afterAll(() => t.close());

describe('the rule, for every set held', () => {
  it('lets a holder of one set grant another exactly when it is a subset, naming what is beyond', () => {
    const wrong: string[] = [];
    for (const held of ALL_MASKS) {
      const heldSet = new Set(permissionsOfMask(held));
      // Every subset one permission short, the set itself, one permission more, each single one, none and all.
      const wantedMasks = new Set([
        0,
        ALL_BITS,
        held,
        ...PERMISSIONS.flatMap((permission) => [
          held & ~bitOf(permission),
          held | bitOf(permission),
          bitOf(permission),
        ]),
      ]);
      for (const wanted of wantedMasks) {
        const beyond = permissionsBeyond(permissionsOfMask(wanted), heldSet).join(' ');
        const within = isWithin(permissionsOfMask(wanted), heldSet);
        if (within !== ((wanted & ~held) === 0) || beyond !== permissionsOfMask(wanted & ~held).join(' ')) {
          wrong.push(`${held} -> ${wanted}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('every set of permissions with manage-users, through the routes', () => {
  it.each(MANAGER_MASKS.map((mask) => [permissionsOfMask(mask).join(' '), mask] as const))(
    'holding %s: assigns and saves its own set, never one permission more',
    async (_, mask) => {
      const manager = await t.sessionOf(`manager-${mask}`);
      const target = await idOf(`target-${mask}`);
      const custom = `custom-${mask}`;
      const outcomes: string[] = [];
      const wanted: string[] = [];
      const record = (what: string, status: number, want: number) => {
        outcomes.push(`${what}: ${status}`);
        wanted.push(`${what}: ${want}`);
      };
      record(
        'assign its own set',
        (await manager.post(`/panel/accounts/${target}/role`, { role: setRole(mask) })).status,
        303,
      );
      expect((await t.stores.panelAccounts.find(target))!.role).toBe(setRole(mask));
      await t.stores.panelAccounts.setRole(target, 'nothing', 0);
      const own = permissionsOfMask(mask);
      record('save its own set', (await manager.post('/panel/roles', { name: custom, permissions: own })).status, 303);
      for (const permission of PERMISSIONS.filter((p) => !own.includes(p))) {
        const more = setRole(mask | (1 << PERMISSIONS.indexOf(permission)));
        const assigned = await manager.post(`/panel/accounts/${target}/role`, { role: more });
        record(`assign +${permission}`, assigned.status, 403);
        expect(assigned.html).toContain(`your role does not (${permission})`);
        const saved = await manager.post('/panel/roles', { name: custom, permissions: [...own, permission] });
        record(`save +${permission}`, saved.status, 403);
      }
      expect(outcomes).toEqual(wanted);
      expect((await t.stores.panelAccounts.find(target))!.role).toBe('nothing');
      expect((await t.stores.panelRoles.find(alpha(), custom))!.permissions).toEqual(own);
      // The panel lists 300 custom roles at most: this one has done its part.
      await t.stores.panelRoles.remove(alpha(), custom);
    },
  );
});

describe('every permission, on every route that manages roles and accounts', () => {
  it("refuses the issue's case: a role with only view and manage-users creates no admin", async () => {
    await t.stores.panelRoles.save(alpha(), { name: 'usermgr', permissions: ['view', 'manage-users'] }, 0);
    await t.addAccount('usermgr', 'alpha', 'usermgr');
    const manager = await t.sessionOf('usermgr');
    const page = await manager.get('/panel/accounts');
    expect(page.html).not.toMatch(/<option[^>]*>admin<\/option>/);
    const created = await manager.post('/panel/accounts', { username: 'sneaky', role: 'admin', password: PASSWORD });
    expect(created.status).toBe(403);
    expect(created.html).toContain(
      'the role admin holds permissions your role does not (punish, pardon, see-ip, manage-tickets, manage-servers, migrate, pardon-own, manage-notes, view-chat-log)',
    );
    expect(await t.stores.panelAccounts.findByUsername('sneaky')).toBeUndefined();
    expect((await manager.post('/panel/roles', { name: 'everything', permissions: [...PERMISSIONS] })).status).toBe(
      403,
    );
    expect(await t.stores.panelRoles.find(alpha(), 'everything')).toBeUndefined();
    expect(
      (await manager.post('/panel/accounts', { username: 'peer', role: 'usermgr', password: PASSWORD })).status,
    ).toBe(303);
  });

  it.each(PERMISSIONS.filter((permission) => permission !== 'manage-users'))(
    '%s: refused to a manager without it, allowed to one with it',
    async (permission) => {
      const bit = 1 << PERMISSIONS.indexOf(permission);
      const without = await t.sessionOf(`manager-${MANAGE_USERS_BIT}`);
      const withIt = await t.sessionOf(`manager-${MANAGE_USERS_BIT | bit}`);
      const holder = `holder-${permission}`;
      await t.addAccount(holder, 'alpha', onlyRole(permission));
      const id = await idOf(holder);
      const outcomes = async (manager: typeof without, name: string) => [
        (
          await manager.post('/panel/accounts', {
            username: `${name}-${permission}`,
            role: onlyRole(permission),
            password: PASSWORD,
          })
        ).status,
        (await manager.post(`/panel/accounts/${id}/role`, { role: onlyRole(permission) })).status,
        (await manager.post(`/panel/accounts/${id}/disable`)).status,
        (await manager.post(`/panel/accounts/${id}/enable`)).status,
        (await manager.post(`/panel/accounts/${id}/password`, { password: PASSWORD })).status,
        (await manager.post('/panel/roles', { name: `role-${name}-${permission}`, permissions: permission })).status,
        (await manager.post(`/panel/roles/${onlyRole(permission)}/two-factor`, { required: 'no' })).status,
      ];
      expect(await outcomes(without, 'without')).toEqual([403, 403, 403, 403, 403, 403, 403]);
      expect(await t.stores.panelAccounts.find(id)).toMatchObject({ role: onlyRole(permission), disabled: false });
      expect(await outcomes(withIt, 'with')).toEqual([303, 303, 303, 303, 200, 303, 303]);
      // Deleting a role that holds it: the holder-less one made just now.
      expect((await without.post(`/panel/roles/role-with-${permission}/delete`)).status).toBe(403);
      expect((await withIt.post(`/panel/roles/role-with-${permission}/delete`)).status).toBe(303);
    },
  );
});
