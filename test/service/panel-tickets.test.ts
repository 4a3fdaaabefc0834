import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTCH, ticketFixture } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(1)>"><';
const MARKUP_SHOWN = '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&gt;&lt;';
const APPEAL_TEXT = 'Please lift it, I have learned my lesson and will not do it again.';

let t: PanelTestService;
let moderator: PanelClient;
beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('mod', 'alpha', 'moderator');
  await t.addAccount('help', 'alpha', 'helper');
  await t.addAccount('view', 'alpha', 'viewer');
  await t.addAccount('betamod', 'beta', 'moderator');
  moderator = await t.loggedIn('mod');
  await t.admin(
    'POST',
    '/networks/alpha/tickets',
    ticketFixture({ id: 'grief-1', subject: MARKUP, description: MARKUP }),
  );
  await t.admin('POST', '/networks/alpha/tickets', ticketFixture({ id: 'bug-1', type: 'bug', subject: 'a bug' }));
});
afterAll(() => t.close());

async function appealTicket(): Promise<{ ticketId: string; punishmentId: string; statusPath: string }> {
  t.clock.advance(1000);
  const created = await t.call('POST', '/punishments/dynamic', {
    targetUuid: NOTCH,
    typeOrdinal: 2,
    issuerName: 'mod',
  });
  const { punishmentId } = (await created.json()) as { punishmentId: string };
  const issued = await t.call('POST', '/appeals/code', { punishmentId, playerUuid: NOTCH, playerName: 'Notch' });
  const { code } = (await issued.json()) as { code: string };
  const sent = await fetch(`${t.service.url}/panel/appeal/alpha`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code, playerName: 'Notch', message: APPEAL_TEXT }).toString(),
    redirect: 'manual',
  });
  const statusPath = sent.headers.get('location')!;
  const appeal = (await t.stores.appeals.byToken(statusPath.split('/').at(-1)!))!;
  return { ticketId: appeal.ticketId, punishmentId, statusPath };
}

const actionsOf = async (network = 'alpha') =>
  (await t.stores.auditLog.newest(t.networkId(network), 100)).map(
    (entry) => `${entry.actor} ${entry.action} ${entry.subject}`,
  );

describe('ticket pages', () => {
  it('lists tickets filtered by type and status, subjects shown as text', async () => {
    const all = await moderator.get('/panel/tickets');
    expect(all.status).toBe(200);
    expect(all.html).toContain(MARKUP_SHOWN);
    expect(all.html).not.toContain('<script>alert(1)');
    const bugs = await moderator.get('/panel/tickets?type=bug');
    expect(bugs.html).toContain('a bug');
    expect(bugs.html).not.toContain(MARKUP_SHOWN);
    const closed = await moderator.get('/panel/tickets?status=Closed');
    expect(closed.html).toContain('No tickets match');
  });

  it('reply, close, reopen and assign, each in the audit log', async () => {
    const page = await moderator.get('/panel/tickets/grief-1');
    expect(page.html).toContain(`id="ticket-description">${MARKUP_SHOWN}</div>`);
    expect((await moderator.post('/panel/tickets/grief-1/reply', { message: MARKUP })).status).toBe(303);
    expect((await moderator.post('/panel/tickets/grief-1/status', { status: 'Closed' })).status).toBe(303);
    expect((await moderator.post('/panel/tickets/grief-1/assign', { assignee: 'help' })).status).toBe(303);
    const after = await moderator.get('/panel/tickets/grief-1');
    expect(after.html).toContain('id="ticket-status">Closed<');
    expect(after.html).toContain(`<div class="answer">${MARKUP_SHOWN}</div>`);
    expect(await t.stores.tickets.find(t.networkId('alpha'), 'grief-1')).toMatchObject({
      status: 'Closed',
      replies: [{ authorName: 'mod', message: MARKUP }],
    });
    // The creator is told in game, as for a reply from a server's staff or the admin API.
    expect((await t.stores.notifications.pendingFor(t.networkId('alpha'), NOTCH)).map((row) => row.message)).toEqual([
      `Staff replied to your ticket grief-1: ${MARKUP}`,
    ]);
    expect((await moderator.post('/panel/tickets/grief-1/status', { status: 'Open' })).status).toBe(303);
    const assigned = await moderator.get('/panel/tickets?assignee=help');
    expect(assigned.html).toContain(MARKUP_SHOWN);
    expect(await actionsOf()).toEqual(
      expect.arrayContaining([
        'mod ticket.reply grief-1',
        'mod ticket.close grief-1',
        'mod ticket.assign grief-1',
        'mod ticket.reopen grief-1',
      ]),
    );
  });

  it('refuses an empty reply next to the field and an assignee who is not staff here', async () => {
    const empty = await moderator.post('/panel/tickets/bug-1/reply', { message: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('<span class="field-error">must not be empty</span>');
    const stranger = await moderator.post('/panel/tickets/bug-1/assign', { assignee: 'betamod' });
    expect(stranger.status).toBe(400);
    expect(stranger.html).toContain('must be a staff member of this network');
  });

  it('checks permission and CSRF on the server, whatever the page showed', async () => {
    const viewer = await t.loggedIn('view');
    expect((await viewer.get('/panel/tickets/bug-1')).status).toBe(200);
    const refused = await viewer.post('/panel/tickets/bug-1/reply', { message: 'hi' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('manage-tickets');
    const noToken = await moderator.post('/panel/tickets/bug-1/reply', { message: 'hi' }, false);
    expect(noToken.status).toBe(403);
    expect(noToken.html).toContain('CSRF');
    expect((await t.stores.tickets.find(t.networkId('alpha'), 'bug-1'))!.replies).toEqual([]);
  });

  it("another network's staff see nothing of this one", async () => {
    const other = await t.loggedIn('betamod');
    expect((await other.get('/panel/tickets/grief-1')).status).toBe(404);
    expect((await other.get('/panel/tickets')).html).not.toContain('grief-1');
    expect((await other.post('/panel/tickets/grief-1/reply', { message: 'x' })).status).toBe(404);
  });

  it('accepting an appeal from its ticket pardons the punishment; the player reads the answer', async () => {
    const { ticketId, punishmentId, statusPath } = await appealTicket();
    const page = await moderator.get(`/panel/tickets/${ticketId}`);
    expect(page.html).toContain('value="accept"');
    const accepted = await moderator.post(`/panel/tickets/${ticketId}/appeal`, {
      decision: 'accept',
      answer: 'Welcome back.',
    });
    expect(accepted.status).toBe(303);
    expect((await t.stores.punishments.find(t.networkId('alpha'), punishmentId))!.status).toBe('pardoned');
    const player = await (await fetch(`${t.service.url}${statusPath}`)).text();
    expect(player).toContain('Welcome back.');
    expect(await actionsOf()).toContain(`mod appeal.accept ${ticketId}`);
  });

  it('a role without pardon cannot accept (also calling the route directly) but can deny', async () => {
    const { ticketId, punishmentId } = await appealTicket();
    const helper = await t.loggedIn('help');
    const page = await helper.get(`/panel/tickets/${ticketId}`);
    expect(page.html).not.toContain('value="accept"');
    const refused = await helper.post(`/panel/tickets/${ticketId}/appeal`, { decision: 'accept', answer: 'ok' });
    expect(refused.status).toBe(403);
    expect((await t.stores.punishments.find(t.networkId('alpha'), punishmentId))!.status).toBe('active');
    const denied = await helper.post(`/panel/tickets/${ticketId}/appeal`, { decision: 'deny', answer: 'No.' });
    expect(denied.status).toBe(303);
    expect(await t.stores.appeals.byTicket(t.networkId('alpha'), ticketId)).toMatchObject({
      status: 'denied',
      decidedBy: 'help',
    });
  });
});
