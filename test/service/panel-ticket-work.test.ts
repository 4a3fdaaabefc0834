import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JEB, NOTCH, ticketFixture } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

const MARKUP = '<b>bold</b>';
const MARKUP_SHOWN = '&lt;b&gt;bold&lt;/b&gt;';

let t: PanelTestService;
let moderator: PanelClient;
let viewer: PanelClient;
let puncher: PanelClient;
const alpha = () => t.networkId('alpha');

/** A chat report by Notch about jeb_, through the ticket route as a server sends it (modl's shape included). */
async function chatReport(subject: string): Promise<string> {
  const created = await t.call('POST', '/tickets', {
    creatorUuid: NOTCH,
    creatorName: 'Notch',
    type: 'chat',
    subject,
    description: 'spamming',
    reportedPlayerUuid: JEB,
    reportedPlayerName: 'jeb_',
    chatMessages: [
      { playerName: 'jeb_', message: `join ${MARKUP}`, sentAt: '2026-01-10T11:58:07.000Z' },
      '[11:59:30] jeb_: best server',
    ],
  });
  expect(created.status).toBe(200);
  return ((await created.json()) as { ticketId: string }).ticketId;
}

beforeAll(async () => {
  t = await startPanelService();
  await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch', ipAddress: '203.0.113.7' });
  await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_', ipAddress: '203.0.113.8' });
  await t.addAccount('mod', 'alpha', 'moderator');
  await t.addAccount('view', 'alpha', 'viewer');
  await t.stores.panelRoles.save(alpha(), { name: 'puncher', permissions: ['view', 'punish'] }, 0);
  await t.addAccount('punch', 'alpha', 'puncher');
  moderator = await t.loggedIn('mod');
  viewer = await t.loggedIn('view');
  puncher = await t.loggedIn('punch');
});
afterAll(() => t.close());

describe('a report worked on its ticket page', () => {
  it('shows the chat lines with their times, as text, and links both players’ pages', async () => {
    const id = await chatReport('chat spam');
    const page = await viewer.get(`/panel/tickets/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(
      `<time datetime="2026-01-10T11:58:07.000Z">2026-01-10 11:58:07 UTC</time> <strong>jeb_</strong>: <span class="wrap">join ${MARKUP_SHOWN}</span>`,
    );
    expect(page.html).toContain(
      '2026-01-10 11:59:30 UTC</time> <strong>jeb_</strong>: <span class="wrap">best server</span>',
    );
    expect(page.html).not.toContain(MARKUP);
    expect(page.html).toContain(`<a href="/panel/players/${NOTCH}" id="ticket-reporter">Notch</a>`);
    expect(page.html).toContain(`<a href="/panel/players/${JEB}" id="ticket-reported">jeb_</a>`);
    // A viewer may not punish: no form.
    expect(page.html).not.toContain('id="ticket-punish-form"');
  });

  it('links a reported player known only by name, and says so when the network never saw them', async () => {
    await t.admin(
      'POST',
      '/networks/alpha/tickets',
      ticketFixture({ id: 'by-name', reportedPlayerName: 'jeb_', subject: 'by name' }),
    );
    await t.admin(
      'POST',
      '/networks/alpha/tickets',
      ticketFixture({ id: 'unknown', reportedPlayerName: 'Ghost', subject: 'ghost' }),
    );
    expect((await moderator.get('/panel/tickets/by-name')).html).toContain(
      `<a href="/panel/players/${JEB}" id="ticket-reported">jeb_</a>`,
    );
    const ghost = await moderator.get('/panel/tickets/unknown');
    expect(ghost.html).toContain('Ghost <small class="muted">(never seen by this network)</small>');
    expect(ghost.html).not.toContain('id="ticket-punish-form"');
  });

  it('punishes from the ticket with the player page’s preview and confirm, linked both ways', async () => {
    const id = await chatReport('links both ways');
    const page = await moderator.get(`/panel/tickets/${id}`);
    expect(page.html).toContain(`action="/panel/players/${JEB}/punish" class="card stack" id="ticket-punish-form"`);
    const form = { ticketId: id, typeOrdinal: '6', severity: 'regular', reason: 'chat spam', duration: '' };
    const preview = await moderator.post(`/panel/players/${JEB}/punish`, form);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('Confirm: Chat Abuse for');
    expect(preview.html).toMatch(/Suggested length<\/dt><dd>1d</);
    expect(preview.html).toContain(`From ticket <a href="/panel/tickets/${id}">links both ways</a>`);
    expect(preview.html).toContain(`name="ticketId" value="${id}"`);
    const once = /name="once" value="([^"]+)"/.exec(preview.html)![1]!;
    const confirm = await moderator.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once });
    expect(confirm.status).toBe(303);
    expect(confirm.location).toBe(`/panel/tickets/${id}#ticket-punishments`);

    const [linked] = await t.stores.tickets.punishmentsOf(alpha(), id);
    expect(linked).toMatchObject({ targetUuid: JEB, issuerName: 'mod', typeOrdinal: 6, reason: 'chat spam' });
    // The punishment names its ticket (as the API's attachedTicketIds) and the player page links it.
    const rows = await t.stores.playerLookup.punishmentsOf(alpha(), JEB, 100);
    expect(rows.find((row) => row.id === linked!.id)).toMatchObject({ attached_ticket_ids: JSON.stringify([id]) });
    const playerPage = await moderator.get(`/panel/players/${JEB}`);
    const card = playerPage.html.slice(playerPage.html.indexOf(`id="punishment-${linked!.id}"`));
    expect(card.slice(0, card.indexOf('</article>'))).toContain(`<a href="/panel/tickets/${id}">links both ways</a>`);
    const after = await moderator.get(`/panel/tickets/${id}`);
    expect(after.html).toContain(`href="/panel/players/${JEB}#punishment-${linked!.id}">jeb_</a>`);
    // Punishing alone leaves the ticket open.
    expect(await t.stores.tickets.factsOf(alpha(), id)).toMatchObject({ status: 'Open' });
    const audit = await t.stores.auditLog.newest(alpha(), 10);
    expect(audit.find((entry) => entry.action === 'punishment.create')).toMatchObject({
      actor: 'mod',
      subject: linked!.id,
      detail: expect.objectContaining({ ticket: id }),
    });
  });

  it('"punish and close" closes the ticket with a reply its reporter is told in game', async () => {
    const id = await chatReport('punish and close');
    const form = {
      ticketId: id,
      close: 'yes',
      closeReply: `Thanks, ${MARKUP} was muted.`,
      typeOrdinal: '6',
      reason: 'spam',
    };
    const preview = await moderator.post(`/panel/players/${JEB}/punish`, form);
    expect(preview.html).toContain(
      `<div class="answer" id="confirm-close-reply">Thanks, ${MARKUP_SHOWN} was muted.</div>`,
    );
    expect(preview.html).toContain('and close the ticket</button>');
    const once = /name="once" value="([^"]+)"/.exec(preview.html)![1]!;
    const [first, second] = await Promise.all([
      moderator.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once }),
      moderator.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes', once }),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);

    expect(await t.stores.tickets.punishmentsOf(alpha(), id)).toHaveLength(1);
    expect(await t.stores.tickets.find(alpha(), id)).toMatchObject({
      status: 'Closed',
      replies: [{ authorName: 'mod', message: `Thanks, ${MARKUP} was muted.` }],
    });
    const notices = await t.stores.notifications.pendingFor(alpha(), NOTCH);
    expect(notices.map((row) => row.message)).toContain(
      `Staff replied to your ticket ${id}: Thanks, ${MARKUP} was muted.`,
    );
    // What the reporter's server is given to show them in game.
    const pending = await t.call('GET', '/notifications/pending?since=2000-01-01T00:00:00.000Z');
    expect(JSON.stringify(await pending.json())).toContain(`Staff replied to your ticket ${id}`);
    const actions = (await t.stores.auditLog.newest(alpha(), 20)).map((entry) => `${entry.action} ${entry.subject}`);
    expect(actions).toContain(`ticket.close ${id}`);
  });

  it('an empty reply is the default one; a ticket closed meanwhile is punished from but stays as it was', async () => {
    const id = await chatReport('default reply');
    const form = { ticketId: id, close: 'yes', closeReply: '  ', typeOrdinal: '6', reason: 'spam', confirm: 'yes' };
    expect((await moderator.post(`/panel/players/${JEB}/punish`, form)).status).toBe(303);
    expect((await t.stores.tickets.find(alpha(), id))!.replies.map((item) => item.message)).toEqual([
      'Thank you for your report: we have acted on it.',
    ]);
    const again = await moderator.post(`/panel/players/${JEB}/punish`, { ...form, reason: 'again' });
    expect(again.status).toBe(303);
    expect(await t.stores.tickets.punishmentsOf(alpha(), id)).toHaveLength(2);
    expect((await t.stores.tickets.find(alpha(), id))!.replies).toHaveLength(1);
  });

  it('refuses closing without manage-tickets, a ticket of no one’s network, and shows form errors on the ticket page', async () => {
    const id = await chatReport('refusals');
    const page = await puncher.get(`/panel/tickets/${id}`);
    expect(page.html).toContain('id="ticket-punish-form"');
    expect(page.html).not.toContain('id="punish-and-close"');
    const refused = await puncher.post(`/panel/players/${JEB}/punish`, {
      ticketId: id,
      close: 'yes',
      typeOrdinal: '6',
      reason: 'spam',
      confirm: 'yes',
    });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('closing the ticket needs the &quot;manage-tickets&quot; permission');
    const missing = await moderator.post(`/panel/players/${JEB}/punish`, {
      ticketId: 'nope',
      typeOrdinal: '6',
      reason: 'spam',
      confirm: 'yes',
    });
    expect(missing.status).toBe(404);
    const blank = await moderator.post(`/panel/players/${JEB}/punish`, { ticketId: id, typeOrdinal: '6', reason: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.html).toContain('id="ticket-subject"');
    expect(blank.html).toContain('<span class="field-error">give a reason</span>');
    expect(await t.stores.tickets.punishmentsOf(alpha(), id)).toEqual([]);
    expect(await t.stores.tickets.factsOf(alpha(), id)).toMatchObject({ status: 'Open' });
  });
});

describe('punishments created through the API with attachedTicketIds', () => {
  it('are listed on each ticket the network has; an unknown id stays on the punishment only', async () => {
    const id = await chatReport('attached through the API');
    const created = await t.call('POST', '/punishments/dynamic', {
      targetUuid: JEB,
      typeOrdinal: 6,
      issuerName: 'api-mod',
      reason: 'from a server',
      attachedTicketIds: [id, 'no-such-ticket', id],
    });
    expect(created.status).toBe(200);
    const { punishmentId } = (await created.json()) as { punishmentId: string };
    expect((await t.stores.tickets.punishmentsOf(alpha(), id)).map((p) => p.id)).toEqual([punishmentId]);
    expect(await t.stores.tickets.punishmentsOf(alpha(), 'no-such-ticket')).toEqual([]);
    const page = await moderator.get(`/panel/tickets/${id}`);
    expect(page.html).toContain(`#punishment-${punishmentId}">jeb_</a>`);
  });
});

describe('bulk actions on the ticket list', () => {
  it('assigns and closes the ticked tickets, each audited, skipping what cannot change', async () => {
    const ids = [await chatReport('bulk one'), await chatReport('bulk two'), await chatReport('bulk three')];
    const list = await moderator.get('/panel/tickets');
    expect(list.html).toContain('id="bulk-form"');
    expect(list.html).toContain(`name="ids" value="${ids[0]}" form="bulk-form"`);
    expect((await viewer.get('/panel/tickets')).html).not.toContain('id="bulk-form"');

    const assigned = await moderator.post('/panel/tickets/bulk', { ids, action: 'assign', assignee: 'mod' });
    expect(assigned.status).toBe(303);
    expect(assigned.location).toBe('/panel/tickets?assigned=3&skipped=0');
    for (const id of ids) expect(await t.stores.ticketList.assigneeOf(alpha(), id)).toBe('mod');

    await moderator.post(`/panel/tickets/${ids[2]}/status`, { status: 'Closed' });
    const closed = await moderator.post('/panel/tickets/bulk', { ids: [...ids, 'gone'], action: 'close' });
    expect(closed.location).toBe('/panel/tickets?closed=2&skipped=2');
    for (const id of ids) expect(await t.stores.tickets.factsOf(alpha(), id)).toMatchObject({ status: 'Closed' });
    expect((await moderator.get(closed.location!)).html).toContain('Closed 2 ticket(s); 2 skipped');
    const actions = (await t.stores.auditLog.newest(alpha(), 50)).map((entry) => `${entry.action} ${entry.subject}`);
    expect(actions).toEqual(expect.arrayContaining([`ticket.assign ${ids[0]}`, `ticket.close ${ids[1]}`]));
  });

  it('refuses an assignee who is not staff here, no ticks, and too many', async () => {
    const id = await chatReport('bulk refusals');
    const stranger = await moderator.post('/panel/tickets/bulk', {
      ids: [id],
      action: 'assign',
      assignee: 'nobody-here',
    });
    expect(stranger.status).toBe(400);
    expect(stranger.html).toContain('assignee: must be a staff member of this network');
    expect((await moderator.post('/panel/tickets/bulk', { action: 'close' })).status).toBe(400);
    const many = Array.from({ length: 51 }, (_, index) => `t${index}`);
    expect((await moderator.post('/panel/tickets/bulk', { ids: many, action: 'close' })).status).toBe(400);
    expect(await t.stores.ticketList.assigneeOf(alpha(), id)).toBeNull();
    expect((await viewer.post('/panel/tickets/bulk', { ids: [id], action: 'close' })).status).toBe(403);
  });
});
