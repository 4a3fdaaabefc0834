import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceStoresPorts } from '../../src/service/store/ports/stores.js';
import { loggedInStaff, startTestServiceOn } from './helpers/dialect-service.js';
import { errorOf, JEB, NOTCH, type TestService } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';

const PASSWORD = 'correct horse battery';
const DINNERBONE = '61699b2e-d327-4a01-9f1e-0ea8c3f06bc6';

/** Issue 34, point 4: immunity weights, per panel role and per in-game `bailiff.weight.<n>`. */
describe.each(['sqlite', 'postgres'] as const)('immunity weights on %s', (dialect) => {
  let t: TestService;
  let stores: ServiceStoresPorts;
  let alpha: number;
  let clients: Map<string, PanelClient>;

  beforeAll(async () => {
    t = await startTestServiceOn(dialect, 'bailiff-immunity-', { pingIntervalMs: 60_000 });
    stores = t.service.context.stores;
    alpha = (await stores.networks.findNetwork('alpha'))!;
    await stores.panelRoles.save(alpha, { name: 'usermgr', permissions: ['view', 'manage-users'] }, 1);
    clients = await loggedInStaff(t, alpha, PASSWORD, [
      ['boss', 'admin'],
      ['mod', 'moderator'],
      ['help', 'helper'],
      ['mgr', 'usermgr'],
    ]);
    // Notch holds bailiff.weight.20, jeb_ bailiff.weight.5, Dinnerbone none: as their servers report at the login check.
    await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch', weight: 20 });
    await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_', weight: 5 });
    await t.call('POST', '/player/login', { minecraftUuid: DINNERBONE, username: 'Dinnerbone', weight: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const panel = (username: string) => clients.get(username)!;
  const create = (body: Record<string, unknown>) =>
    t.call('POST', '/punishments/dynamic', { targetUuid: NOTCH, typeOrdinal: 2, issuerName: 'Steve', ...body });
  const punishmentsOf = async (uuid: string) => (await stores.punishments.historyOf(alpha, uuid)).length;

  it('remembers the weight each login reports, and forgets it when a login reports 0', async () => {
    expect(await stores.immunity.playerWeight(alpha, NOTCH)).toBe(20);
    expect(await stores.immunity.playerWeight(alpha, JEB)).toBe(5);
    expect(await stores.immunity.playerWeight(alpha, DINNERBONE)).toBe(0);
    await t.call('POST', '/player/login', { minecraftUuid: DINNERBONE, username: 'Dinnerbone', weight: 30 });
    expect(await stores.immunity.playerWeight(alpha, DINNERBONE)).toBe(30);
    await t.call('POST', '/player/login', { minecraftUuid: DINNERBONE, username: 'Dinnerbone', weight: 0 });
    expect(await stores.immunity.playerWeight(alpha, DINNERBONE)).toBe(0);
    // A login without the field (an older plugin) leaves what was reported.
    await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_' });
    expect(await stores.immunity.playerWeight(alpha, JEB)).toBe(5);
    const bad = await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_', weight: 101 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('must be at most 100');
  });

  it('refuses an in-game issuer of weight 10 a target of weight 20 (and of equal weight), naming the weight; takes weight 5', async () => {
    const refused = await create({ issuerWeight: 10 });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({
      message:
        'refused: Notch has immunity weight 20, and the weight of your in-game permissions (bailiff.weight.10) is 10; ' +
        'only a higher weight may punish them',
      limit: 'immunity',
    });
    expect((await create({ issuerWeight: 20 })).status).toBe(403);
    expect(await punishmentsOf(NOTCH)).toBe(0);
    expect((await create({ issuerWeight: 10, targetUuid: JEB })).status).toBe(200);
    expect((await create({ issuerWeight: 21 })).status).toBe(200);
    expect(await punishmentsOf(JEB)).toBe(1);
    expect(await punishmentsOf(NOTCH)).toBe(1);
  });

  it('counts an API issuer without a weight as weight 0: refused for any weighted player, not for others', async () => {
    const refused = await create({ targetUuid: JEB, typeOrdinal: 1 });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(
      'refused: jeb_ has immunity weight 5, and the weight of an issuer that sent none is 0; only a higher weight may punish them',
    );
    expect((await create({ targetUuid: DINNERBONE })).status).toBe(200);
  });

  it("sets a role's weight on the roles page, and the panel refuses its holders a target of equal or higher weight", async () => {
    const boss = panel('boss');
    const bad = await boss.post('/panel/roles/moderator/weight', { weight: 'heavy' });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('weight: must be a number');
    expect((await boss.post('/panel/roles/moderator/weight', { weight: '10' })).status).toBe(303);
    expect(await stores.immunity.roleWeight(alpha, 'moderator')).toBe(10);
    expect((await boss.get('/panel/roles')).html).toMatch(/data-role="moderator"[\s\S]*?name="weight"[^>]*value="10"/);
    // Nobody but the admin role raises a role above their own role's weight.
    const above = await panel('mgr').post('/panel/roles/viewer/weight', { weight: '5' });
    expect(above.status).toBe(403);
    expect(above.html).toContain('you cannot give a role weight 5: your role (usermgr) has weight 0');
    expect(await stores.immunity.roleWeight(alpha, 'viewer')).toBe(0);
    const audit = await stores.auditLog.newest(alpha, 10);
    expect(audit.find((entry) => entry.action === 'role.weight')).toMatchObject({ subject: 'moderator' });

    const form = { typeOrdinal: '2', severity: 'regular', reason: 'griefing', duration: '1d' };
    const mod = panel('mod');
    const refused = await mod.post(`/panel/players/${NOTCH}/punish`, form);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain(
      'refused: Notch has immunity weight 20, and the weight of your role (moderator) is 10; only a higher weight may punish them',
    );
    const refusedConfirm = await mod.post(`/panel/players/${NOTCH}/punish`, { ...form, confirm: 'yes' });
    expect(refusedConfirm.status).toBe(403);
    expect(await punishmentsOf(NOTCH)).toBe(1);
    // The helper role has weight 0: jeb_ (5) is out of its reach, Dinnerbone (0) is not.
    expect((await panel('help').post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes' })).status).toBe(403);
    expect((await panel('help').post(`/panel/players/${DINNERBONE}/punish`, form)).status).toBe(200);
    const confirmPage = await mod.post(`/panel/players/${JEB}/punish`, form);
    expect(confirmPage.status).toBe(200);
    const once = /name="once" value="([^"]+)"/.exec(confirmPage.html)![1]!;
    expect((await mod.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once })).status).toBe(303);
    expect(await punishmentsOf(JEB)).toBe(2);
  });
});
