import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DINNERBONE, JEB, NOTCH } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

const XSS_NAME = '<script>alert(1)</script>';
const XSS_REASON = '<img src=x onerror=alert(1)> "><b>bold</b>';
const XSS_UUID = '0000aaaa-0000-4000-8000-000000000001';

let t: PanelTestService;
let admin: PanelClient;
let helper: PanelClient;
let viewer: PanelClient;
let betaAdmin: PanelClient;

async function apiBan(target: string, reason = 'x-ray'): Promise<string> {
  const created = await t.call('POST', '/punishments/dynamic', {
    targetUuid: target,
    typeOrdinal: 2,
    issuerName: 'api-mod',
    reason,
  });
  expect(created.status).toBe(200);
  return ((await created.json()) as { punishmentId: string }).punishmentId;
}

beforeAll(async () => {
  t = await startPanelService();
  await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch', ipAddress: '203.0.113.7' });
  await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_', ipAddress: '203.0.113.7' });
  // A name the login check would refuse, as an import or an older version may have stored it.
  await t.stores.players.save(t.networkId('alpha'), XSS_UUID, XSS_NAME);
  await t.addAccount('admin', 'alpha', 'admin');
  await t.addAccount('helper', 'alpha', 'helper');
  await t.addAccount('viewer', 'alpha', 'viewer');
  await t.addAccount('betaadmin', 'beta', 'admin');
  admin = await t.loggedIn('admin');
  helper = await t.loggedIn('helper');
  viewer = await t.loggedIn('viewer');
  betaAdmin = await t.loggedIn('betaadmin');
});
afterAll(() => t.close());

describe('player search', () => {
  it('finds by name prefix (any case) and goes straight to a single exact match', async () => {
    const exact = await viewer.get('/panel/players?q=notch');
    expect(exact.status).toBe(303);
    expect(exact.location).toBe(`/panel/players/${NOTCH}`);
    const prefix = await viewer.get('/panel/players?q=j');
    expect(prefix.status).toBe(200);
    expect(prefix.html).toContain(`/panel/players/${JEB}`);
  });

  it('finds by UUID', async () => {
    const page = await viewer.get(`/panel/players?q=${JEB}`);
    expect(page.location).toBe(`/panel/players/${JEB}`);
  });

  it('finds by IP address only with see-ip, also when the URL is called directly', async () => {
    const allowed = await admin.get('/panel/players?q=203.0.113.7');
    expect(allowed.status).toBe(200);
    expect(allowed.html).toContain(`/panel/players/${NOTCH}`);
    expect(allowed.html).toContain(`/panel/players/${JEB}`);
    const refused = await helper.get('/panel/players?q=203.0.113.7');
    expect(refused.status).toBe(403);
    expect(refused.html).not.toContain(NOTCH);
  });

  it("never finds another network's players", async () => {
    const page = await betaAdmin.get('/panel/players?q=notch');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(NOTCH);
    expect((await betaAdmin.get(`/panel/players/${NOTCH}`)).status).toBe(404);
    expect((await admin.get(`/panel/players/${DINNERBONE}`)).status).toBe(404);
  });
});

describe('player page', () => {
  it('shows history with status, evidence and which servers acknowledged each punishment', async () => {
    const id = await apiBan(JEB);
    await t.call('POST', `/punishments/${id}/evidence`, {
      issuerName: 'api-mod',
      evidenceUrl: 'https://clips.example/1',
    });
    await t.call('POST', '/punishments/acknowledge', { punishmentId: id, playerUuid: JEB, success: true });
    const page = await viewer.get(`/panel/players/${JEB}`);
    expect(page.status).toBe(200);
    const card = page.html.slice(page.html.indexOf(`id="punishment-${id}"`));
    expect(card).toContain('Manual Ban');
    expect(card).toContain('badge active');
    expect(card).toContain('href="https://clips.example/1"');
    expect(card).toMatch(/<strong>survival<\/strong> enforced at/);
  });

  it('shows a temporary punishment whose time is over as expired', async () => {
    const created = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: 'api-mod',
      reason: 'one hour',
      duration: 3_600_000,
    });
    const { punishmentId } = (await created.json()) as { punishmentId: string };
    await t.call('POST', '/punishments/acknowledge', { punishmentId, playerUuid: NOTCH, success: true });
    const card = (html: string) => html.slice(html.indexOf(`id="punishment-${punishmentId}"`)).slice(0, 600);
    expect(card((await viewer.get(`/panel/players/${NOTCH}`)).html)).toContain('badge active');
    t.clock.advance(3_600_001);
    const later = card((await viewer.get(`/panel/players/${NOTCH}`)).html);
    expect(later).toContain('badge expired');
    expect(later).toContain('1h');
  });

  it('shows the last address and shared addresses only with see-ip', async () => {
    expect((await admin.get(`/panel/players/${NOTCH}`)).html).toContain('203.0.113.7');
    const helperPage = await helper.get(`/panel/players/${NOTCH}`);
    expect(helperPage.html).not.toContain('203.0.113.7');
    expect(helperPage.html).toContain(`/panel/players/${JEB}`);
  });

  it('shows names and reasons holding markup as text', async () => {
    await apiBan(XSS_UUID, XSS_REASON);
    const page = await admin.get(`/panel/players/${XSS_UUID}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<script>alert(1)</script>');
    expect(page.html).not.toContain('<img src=x onerror');
    expect(page.html).not.toContain('"><b>');
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;&gt;&lt;b&gt;bold&lt;/b&gt;');
    const dashboard = await admin.get('/panel/');
    expect(dashboard.html).not.toContain('<script>alert(1)</script>');
    expect(dashboard.html).not.toContain('<img src=x onerror');
    const search = await admin.get(`/panel/players?q=${encodeURIComponent('<script>')}`);
    expect(search.html).not.toContain('<script>alert');
    expect(search.html).toContain('&lt;script&gt;');
  });
});

describe('issuing a punishment from the panel', () => {
  it('previews points, tier and suggested length before anything is stored', async () => {
    const before = await t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), NOTCH, 100);
    const preview = await admin.post(`/panel/players/${NOTCH}/punish`, {
      typeOrdinal: '6',
      severity: 'regular',
      reason: 'spam',
      duration: '',
    });
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('Confirm: Chat Abuse for');
    expect(preview.html).toMatch(/Social points<\/dt><dd>0 \(tier low\)/);
    expect(preview.html).toMatch(/Suggested length<\/dt><dd>1d</);
    expect(await t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), NOTCH, 100)).toHaveLength(before.length);
  });

  it('stores it on confirm through the API path (stream, notification) and writes the audit log', async () => {
    const confirm = await admin.post(`/panel/players/${NOTCH}/punish`, {
      typeOrdinal: '6',
      severity: 'regular',
      reason: 'spam',
      duration: '2h',
      confirm: 'yes',
    });
    expect(confirm.status).toBe(303);
    const rows = await t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), NOTCH, 100);
    const created = rows.find((row) => row.reason === 'spam')!;
    expect(created).toMatchObject({ issuer_name: 'admin', type_ordinal: 6, duration: 7_200_000, status: 'active' });
    expect(confirm.location).toBe(`/panel/players/${NOTCH}#punishment-${created.id}`);
    const recent = await t.call('GET', '/punishments/recent');
    expect(JSON.stringify(await recent.json())).toContain(created.id);
    const audit = await t.stores.auditLog.newest(t.networkId('alpha'), 10);
    expect(audit.find((entry) => entry.action === 'punishment.create')).toMatchObject({
      actor: 'admin',
      via: 'panel',
      subject: created.id,
    });
  });

  it('issues one punishment when the same confirm page is submitted twice', async () => {
    const form = { typeOrdinal: '7', severity: 'lenient', reason: 'double click' };
    const preview = await admin.post(`/panel/players/${JEB}/punish`, form);
    const once = /name="once" value="([^"]+)"/.exec(preview.html)![1]!;
    const [first, second] = await Promise.all([
      admin.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once }),
      admin.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once }),
    ]);
    const again = await admin.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once });
    expect([first.status, second.status, again.status]).toEqual([303, 303, 303]);
    const rows = await t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), JEB, 100);
    const issued = rows.filter((row) => row.reason === 'double click');
    expect(issued).toHaveLength(1);
    expect(again.location).toBe(`/panel/players/${JEB}#punishment-${issued[0]!.id}`);
  });

  it('issues a warning as /warn does: a Kick-type record with the status warning', async () => {
    const preview = await admin.post(`/panel/players/${JEB}/punish`, { typeOrdinal: 'warning', reason: 'language' });
    expect(preview.html).toContain('Confirm: Warning for');
    const confirm = await admin.post(`/panel/players/${JEB}/punish`, {
      typeOrdinal: 'warning',
      reason: 'language',
      confirm: 'yes',
    });
    expect(confirm.status).toBe(303);
    const rows = await t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), JEB, 100);
    expect(rows.find((row) => row.reason === 'language')).toMatchObject({
      type_ordinal: 0,
      status: 'warning',
      duration: 0,
      issuer_name: 'admin',
    });
    const audit = await t.stores.auditLog.newest(t.networkId('alpha'), 5);
    expect(audit[0]).toMatchObject({ action: 'punishment.warn', actor: 'admin' });
  });

  it('shows errors next to the fields and stores nothing on a bad form', async () => {
    const page = await admin.post(`/panel/players/${NOTCH}/punish`, {
      typeOrdinal: '999',
      reason: '',
      duration: 'forever-ish',
    });
    expect(page.status).toBe(400);
    expect(page.html).toContain('choose a type of the catalogue');
    expect(page.html).toContain('give a reason');
    expect(page.html).toContain('is not a length');
  });

  it('refuses punishing without punish, and any write without the CSRF token', async () => {
    const form = { typeOrdinal: '2', reason: 'no', confirm: 'yes' };
    expect((await viewer.post(`/panel/players/${NOTCH}/punish`, form)).status).toBe(403);
    expect((await admin.post(`/panel/players/${NOTCH}/punish`, form, false)).status).toBe(403);
    const rows = await t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), NOTCH, 100);
    expect(rows.filter((row) => row.reason === 'no')).toEqual([]);
  });

  it("adds evidence with the API's URL rule", async () => {
    const id = await apiBan(NOTCH, 'evidence test');
    const bad = await admin.post(`/panel/punishments/${id}/evidence`, { evidenceUrl: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('must be an http(s) URL');
    expect(
      (await admin.post(`/panel/punishments/${id}/evidence`, { evidenceUrl: 'https://clips.example/2' })).status,
    ).toBe(303);
    expect(await t.stores.enforcement.evidence(t.networkId('alpha'), id)).toMatchObject([
      { issuerName: 'admin', evidenceUrl: 'https://clips.example/2' },
    ]);
    expect((await viewer.post(`/panel/punishments/${id}/evidence`, { evidenceUrl: 'https://x.example/' })).status).toBe(
      403,
    );
  });
});

describe('pardons from the panel', () => {
  it('a role without pardon gets no button and is refused when calling the route directly', async () => {
    const id = await apiBan(NOTCH, 'pardon test');
    const page = await helper.get(`/panel/players/${NOTCH}`);
    expect(page.html).not.toContain(`/panel/punishments/${id}/pardon`);
    const refused = await helper.post(`/panel/punishments/${id}/pardon`, { reason: 'sneaky' });
    expect(refused.status).toBe(403);
    expect((await t.stores.punishments.find(t.networkId('alpha'), id))!.status).toBe('active');
  });

  it('pardons through the API path and records who did it', async () => {
    const id = await apiBan(NOTCH, 'pardon me');
    expect((await admin.get(`/panel/players/${NOTCH}`)).html).toContain(`/panel/punishments/${id}/pardon`);
    const done = await admin.post(`/panel/punishments/${id}/pardon`, { reason: 'appeal accepted' });
    expect(done.status).toBe(303);
    expect((await t.stores.punishments.find(t.networkId('alpha'), id))!.status).toBe('pardoned');
    expect(await t.stores.pardons.find(t.networkId('alpha'), id)).toMatchObject({
      issuerName: 'admin',
      reason: 'appeal accepted',
      server: null,
    });
    const page = await admin.get(`/panel/players/${NOTCH}`);
    expect(page.html).toContain('Pardoned by admin');
  });

  it('refuses a pardon reason the API would refuse, next to the field', async () => {
    const id = await apiBan(NOTCH, 'long reason');
    const refused = await admin.post(`/panel/punishments/${id}/pardon`, { reason: 'x'.repeat(1001) });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('must be at most 1000 characters');
    expect((await t.stores.punishments.find(t.networkId('alpha'), id))!.status).toBe('active');
  });

  it("cannot touch another network's punishment", async () => {
    expect((await admin.post('/panel/punishments/beta-ban/pardon', { reason: 'x' })).status).toBe(404);
    expect((await t.stores.punishments.find(t.networkId('beta'), 'beta-ban'))!.status).toBe('active');
  });
});
