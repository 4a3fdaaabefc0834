import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAppeal } from '../../src/service/panel/appeals/decide-appeal.js';
import { JEB, NOTCH } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';
import { readUntil } from './helpers/read-until.js';

const ALT = '11111111-1111-4111-8111-000000000001';
const STAFF_NAME = 'SecretModName';
/** Addresses glued to letters and punctuation, as staff write them (issue 32). */
const GLUED: [string, string][] = [
  ['IP:203.0.113.12 alt', 'IP:[address hidden] alt'],
  ['ip:203.0.113.0/24 range', 'ip:[address hidden] range'],
  ['addr:2001:db8::12', 'addr:[address hidden]'],
  ['e.g.203.0.113.17 again', 'e.g.[address hidden] again'],
  ['joined [2001:db8::99]:25565', 'joined [address hidden]'],
];
const RAW = ['203.0.113.12', '203.0.113.0', '2001:db8::12', '203.0.113.17', '2001:db8::99'];

let t: PanelTestService;
let viewer: PanelClient;
let moderator: PanelClient;

beforeAll(async () => {
  t = await startPanelService();
  expect((await t.admin('PATCH', '/networks/alpha/settings', { publicList: true })).status).toBe(200);
  await t.addAccount('watcher', 'alpha', 'viewer');
  await t.addAccount('headmod', 'alpha', 'moderator');
  await t.addAccount('helpmod', 'alpha', 'helper');
  viewer = await t.loggedIn('watcher');
  moderator = await t.loggedIn('headmod');
});
afterAll(() => t.close());

async function punish(target: string, reason: string, extra: Record<string, unknown> = {}): Promise<string> {
  t.clock.advance(1000);
  const response = await t.call('POST', '/punishments/dynamic', {
    targetUuid: target,
    typeOrdinal: 2,
    issuerName: STAFF_NAME,
    reason,
    ...extra,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { punishmentId: string }).punishmentId;
}

async function login(uuid: string, username: string, ipAddress: string) {
  const response = await t.call('POST', '/player/login', { minecraftUuid: uuid, username, ipAddress });
  expect(response.status).toBe(200);
}

const page = async (path: string) => (await fetch(`${t.service.url}${path}`)).text();

function expectNoAddress(html: string, where: string) {
  for (const raw of RAW) expect(html, `${where} shows ${raw}`).not.toContain(raw);
}

describe('public pages: addresses, Linked Bans and staff names', () => {
  it('hides addresses glued to letters and punctuation on the list, the player page and a search', async () => {
    for (const [reason] of GLUED) await punish(NOTCH, reason);
    const list = await page('/panel/public/alpha/');
    for (const [, shown] of GLUED) expect(list).toContain(shown);
    expectNoAddress(list, 'the public list');
    const player = await page(`/panel/public/alpha/player/${NOTCH}`);
    for (const [, shown] of GLUED) expect(player).toContain(shown);
    expectNoAddress(player, 'the public player page');
    const search = await page(`/panel/public/alpha/?player=${encodeURIComponent('IP:203.0.113.12')}`);
    expect(search).toContain('No player named IP:[address hidden] has been seen');
    expectNoAddress(search, 'a search');
  });

  it("shows a Linked Ban as 'linked account', never the main account's reason", async () => {
    await login(JEB, 'jeb_', '198.51.100.20');
    await punish(JEB, 'MainAccountSecretReason: x-ray', { data: { altBlocking: true } });
    await login(ALT, 'AltAccount', '198.51.100.20');
    const linked = (await t.service.context.stores.punishments.activeFor(1, ALT)).find((row) => row.type_ordinal === 4);
    expect(linked?.reason).toBe('MainAccountSecretReason: x-ray');
    const player = await page(`/panel/public/alpha/player/${ALT}`);
    expect(player).toContain('<td class="reason">linked account</td>');
    expect(player).not.toContain('MainAccountSecretReason');
    const list = await page('/panel/public/alpha/?kind=ban');
    expect(list.match(/MainAccountSecretReason/g)).toHaveLength(1);
    expect(list).toContain('<td class="reason">linked account</td>');
  });

  it("names every issuer with the network's label: Staff by default, the owner's choice, back with null", async () => {
    const settings = async () => (await t.admin('GET', '/networks/alpha/settings')).json();
    expect(await settings()).toMatchObject({ publicList: true, publicIssuerLabel: 'Staff' });
    const before = await page('/panel/public/alpha/');
    expect(before).not.toContain(STAFF_NAME);
    expect(before).not.toContain('>System<');
    expect(before).toContain('<td>Staff</td>');

    const changed = await t.admin('PATCH', '/networks/alpha/settings', { publicIssuerLabel: '  Moderation team ' });
    expect(await changed.json()).toMatchObject({ publicList: true, publicIssuerLabel: 'Moderation team' });
    const after = await page(`/panel/public/alpha/player/${NOTCH}`);
    expect(after).toContain('<td>Moderation team</td>');
    expect(after).not.toContain(STAFF_NAME);

    for (const [label, message] of [
      ['   ', 'publicIssuerLabel: must not be empty'],
      ['x'.repeat(33), 'publicIssuerLabel: must be at most 32 characters'],
      [7, 'publicIssuerLabel:'],
    ] as const) {
      const refused = await t.admin('PATCH', '/networks/alpha/settings', { publicIssuerLabel: label });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toContain(message);
    }
    expect(await settings()).toMatchObject({ publicList: true, publicIssuerLabel: 'Moderation team' });
    await t.admin('PATCH', '/networks/alpha/settings', { publicIssuerLabel: null });
    expect(await settings()).toMatchObject({ publicList: true, publicIssuerLabel: 'Staff' });
    // Another network keeps its own.
    expect(await (await t.admin('GET', '/networks/beta/settings')).json()).toMatchObject({
      publicList: false,
      publicIssuerLabel: 'Staff',
    });
  });

  it('the appeal status page hides addresses and answers "from" the label, never the staff member', async () => {
    const id = await punish(NOTCH, 'ban evasion from IP:203.0.113.12');
    const token = randomBytes(32).toString('base64url');
    const opened = await t.service.context.stores.appeals.open({
      networkId: 1,
      punishmentId: id,
      playerName: 'Notch',
      token,
      ticket: {
        id: 'appeal-ticket-1',
        type: 'appeal',
        subject: `Appeal of Manual Ban ${id}`,
        description: 'I play from addr:2001:db8::12 at home, never from that one',
        priority: 'normal',
        creatorUuid: NOTCH,
        creatorName: 'Notch',
        reportedPlayerUuid: null,
        reportedPlayerName: null,
        tags: ['appeal'],
        createdServer: null,
        replayUrl: null,
        chatMessages: [],
        createdAtMs: t.clock.now(),
      },
    });
    expect(opened).toBe(true);
    const decided = await decideAppeal(t.service.context, {
      networkId: 1,
      ticketId: 'appeal-ticket-1',
      decision: 'deny',
      staff: { name: STAFF_NAME },
      answer: 'Your account logged in from e.g.203.0.113.17 right after the ban.',
    });
    expect(decided).toMatchObject({ ok: true, status: 'denied' });
    const html = await page(`/panel/appeal/status/${token}`);
    expect(html).toContain('ban evasion from IP:[address hidden]');
    expect(html).toContain('I play from addr:[address hidden] at home');
    expect(html).toContain('logged in from e.g.[address hidden] right after');
    expect(html).toContain('Answer from Staff (');
    expect(html).not.toContain(STAFF_NAME);
    expectNoAddress(html, 'the appeal status page');
    // The token is stored only as a hash.
    expect(createHash('sha256').update(token).digest('hex')).not.toBe(token);
  });
});

describe('staff pages of a role without see-ip', () => {
  it('dashboard, player page, ticket and audit log hide addresses from a viewer; a moderator with see-ip reads them', async () => {
    const id = await punish(NOTCH, 'alt of IP:203.0.113.12');
    const ticket = await t.call('POST', '/tickets', {
      creatorUuid: JEB,
      creatorName: 'jeb_',
      type: 'player',
      subject: 'cheater on addr:2001:db8::12',
      description: 'he joins from e.g.203.0.113.17 every night',
      reportedPlayerUuid: NOTCH,
      reportedPlayerName: 'Notch',
    });
    const { ticketId } = (await ticket.json()) as { ticketId: string };
    const pages = {
      dashboard: '/panel/',
      player: `/panel/players/${NOTCH}`,
      ticket: `/panel/tickets/${encodeURIComponent(ticketId)}`,
      audit: '/panel/audit',
    };
    for (const [name, path] of Object.entries(pages)) {
      const seen = await viewer.get(path);
      expect(seen.status, name).toBe(200);
      expectNoAddress(seen.html, `the viewer's ${name}`);
      expect(seen.html, name).toContain('[address hidden]');
    }
    expect((await viewer.get(pages.player)).html).toContain('alt of IP:[address hidden]');
    const withSeeIp = await moderator.get(pages.player);
    expect(withSeeIp.html).toContain('alt of IP:203.0.113.12');
    expect((await moderator.get(pages.ticket)).html).toContain('e.g.203.0.113.17');
    expect(id).toBeTruthy();
  });

  it('keeps what a staff member without see-ip typed: a refused form and the confirmation carry it as written', async () => {
    const helper = await t.loggedIn('helpmod');
    expect((await helper.get(`/panel/players/${JEB}`)).status).toBe(200);
    const reason = 'evading from IP:203.0.113.12';
    const refused = await helper.post(`/panel/players/${JEB}/punish`, { typeOrdinal: 'nope', reason });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(`value="${reason}"`);
    const form = { typeOrdinal: '7', severity: 'lenient', reason };
    const preview = await helper.post(`/panel/players/${JEB}/punish`, form);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(`name="reason" value="${reason}"`);
    const once = /name="once" value="([^"]+)"/.exec(preview.html)![1]!;
    const confirmed = await helper.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once });
    expect(confirmed.status).toBe(303);
    const rows = await t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), JEB, 100);
    expect(rows.filter((row) => row.issuer_name === 'helpmod').map((row) => row.reason)).toEqual([reason]);
    // Shown back later, it is stored text like any other: hidden from the helper's role.
    expect((await helper.get(`/panel/players/${JEB}`)).html).toContain('evading from IP:[address hidden]');
  });

  it('the live feed sends a viewer the punishment with addresses hidden, a moderator as it is', async () => {
    const open = async (client: PanelClient) => {
      const response = await fetch(`${t.service.url}/panel/live`, {
        headers: { cookie: `bailiff_panel=${client.cookie('bailiff_panel')}` },
      });
      expect(response.status).toBe(200);
      return response.body!.getReader();
    };
    const readers = [await open(viewer), await open(moderator)];
    try {
      for (const reader of readers) await readUntil(reader, 'retry:', 5000);
      const id = await punish(NOTCH, 'live: addr:2001:db8::12 and IP:203.0.113.12:25565');
      const [forViewer, forModerator] = [
        await readUntil(readers[0]!, id, 5000),
        await readUntil(readers[1]!, id, 5000),
      ];
      expect(eventOf(forViewer, id).reason).toBe('live: addr:[address hidden] and IP:[address hidden]');
      expect(eventOf(forModerator, id).reason).toBe('live: addr:2001:db8::12 and IP:203.0.113.12:25565');
    } finally {
      for (const reader of readers) await reader.cancel();
    }
  });

  it('an error page hides addresses from strangers and from roles without see-ip', async () => {
    const stranger = await fetch(`${t.service.url}/panel/nowhere/ip:203.0.113.12`);
    expect(stranger.status).toBe(404);
    const html = await stranger.text();
    expect(html).toContain('there is no page /panel/nowhere/ip:[address hidden]');
    expect((await viewer.get('/panel/nowhere/ip:203.0.113.12')).html).not.toContain('203.0.113.12');
  });
});

function eventOf(received: string, id: string): { reason: string } {
  const line = received.split('\n').find((text) => text.startsWith('data: ') && text.includes(id))!;
  return JSON.parse(line.slice('data: '.length)) as { reason: string };
}
