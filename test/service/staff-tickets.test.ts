import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCheckResponse, ticketResponse } from '../../src/contract/schemas.js';
import {
  pendingNoticesResponse,
  staffActionResponse,
  staffReplyResponse,
  ticketListResponse,
} from '../../src/contract/staff-ticket-schemas.js';
import { errorOf, JEB, KEY_A2, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

const MOD = '4566e69f-c907-48ee-8d71-d7ba5aa00d21';
const OTHER_MOD = '4566e69f-c907-48ee-8d71-d7ba5aa00d22';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

async function openTicket(overrides: Record<string, unknown> = {}, apiKey?: string): Promise<string> {
  const response = await t.call(
    'POST',
    '/tickets',
    {
      creatorUuid: NOTCH,
      creatorName: 'Notch',
      type: 'player',
      subject: 'griefing my base',
      description: 'jeb_ broke my house',
      reportedPlayerUuid: JEB,
      reportedPlayerName: 'jeb_',
      ...overrides,
    },
    apiKey,
  );
  expect(response.status).toBe(200);
  t.clock.advance(1000);
  return ((await response.json()) as { ticketId: string }).ticketId;
}

async function list(query: string, apiKey?: string) {
  const response = await t.call('GET', `/tickets${query}`, undefined, apiKey);
  expect(response.status).toBe(200);
  return ticketListResponse.parse(await response.json());
}

describe('staff ticket extension: open reports', () => {
  it('lists the open reports of the network newest first, paged, with whom each is about and where it came from', async () => {
    const older = await openTicket();
    const bug = await openTicket({ type: 'bug', reportedPlayerUuid: undefined, reportedPlayerName: undefined });
    const newer = await openTicket(
      { type: 'chat', subject: 'spam', description: `keeps posting\n  links ${'x'.repeat(120)}` },
      KEY_A2,
    );

    const all = await list('?status=open&type=player,chat&pageSize=50');
    const ids = all.tickets.map((ticket) => ticket.id);
    expect(ids).not.toContain(bug);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(all.tickets.find((ticket) => ticket.id === newer)).toMatchObject({
      type: 'chat',
      subject: 'spam',
      status: 'Open',
      reportedPlayerName: 'jeb_',
      excerpt: `keeps posting links ${'x'.repeat(77)}...`,
      createdServer: 'creative',
      assigneeName: null,
    });

    const firstPage = await list('?pageSize=1');
    expect(firstPage).toMatchObject({ page: 1, pageSize: 1, total: all.total });
    expect(firstPage.tickets.map((ticket) => ticket.id)).toEqual([newer]);
    const secondPage = await list('?pageSize=1&page=2');
    expect(secondPage.tickets.map((ticket) => ticket.id)).toEqual([ids[1]]);

    const bugs = await list('?type=bug');
    expect(bugs.tickets.map((ticket) => ticket.id)).toEqual([bug]);
  });

  it('shows another network nothing of them', async () => {
    const ours = await openTicket();
    const theirs = await list('?pageSize=50', KEY_B);
    expect(theirs.tickets.map((ticket) => ticket.id)).not.toContain(ours);
    const claim = await t.call('POST', `/tickets/${ours}/claim`, { staffName: 'Intruder', staffUuid: MOD }, KEY_B);
    expect(claim.status).toBe(404);
    expect((await errorOf(claim)).message).toBe(`ticket ${ours} not found`);
    const reply = await t.call('POST', `/tickets/${ours}/staff-replies`, { staffName: 'I', message: 'hi' }, KEY_B);
    expect(reply.status).toBe(404);
    const close = await t.call('POST', `/tickets/${ours}/close`, { staffName: 'Intruder' }, KEY_B);
    expect(close.status).toBe(404);
  });

  it.each([
    ['?status=pending', 'status: must be one of open, closed'],
    ['?type=player,rant', 'type: must be a comma-separated list of player, chat, bug, support, appeal, application'],
    ['?pageSize=51', 'pageSize: must be at most 50'],
    ['?page=0', 'page: must be at least 1'],
    ['?sort=new', 'sort: is not an accepted field'],
  ])('refuses %s naming the parameter', async (query, message) => {
    const response = await t.call('GET', `/tickets${query}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(message);
  });
});

describe('staff ticket extension: claim and close', () => {
  it('assigns a report to one staff member; another claim answers 409 naming who holds it', async () => {
    const id = await openTicket();
    const claimed = await t.call('POST', `/tickets/${id}/claim`, { staffName: 'Mod', staffUuid: MOD });
    expect(claimed.status).toBe(200);
    expect(staffActionResponse.parse(await claimed.json())).toMatchObject({
      ticketId: id,
      ticketStatus: 'Open',
      assigneeName: 'Mod',
    });
    const again = await t.call('POST', `/tickets/${id}/claim`, { staffName: 'Mod', staffUuid: MOD.toUpperCase() });
    expect(again.status).toBe(200);

    const taken = await t.call('POST', `/tickets/${id}/claim`, { staffName: 'Other', staffUuid: OTHER_MOD }, KEY_A2);
    expect(taken.status).toBe(409);
    const body = await errorOf(taken);
    expect(body.message).toBe(`ticket ${id} is claimed by Mod`);
    const listed = await list('?pageSize=50');
    expect(listed.tickets.find((ticket) => ticket.id === id)?.assigneeName).toBe('Mod');
  });

  it('closes a report: it leaves the open list, the ticket reads closed, a second close and a claim answer 409', async () => {
    const id = await openTicket();
    const closed = await t.call('POST', `/tickets/${id}/close`, { staffName: 'Mod', reason: 'warned jeb_' });
    expect(closed.status).toBe(200);
    expect(staffActionResponse.parse(await closed.json())).toMatchObject({
      ticketStatus: 'Closed',
      assigneeName: 'Mod',
    });

    const { ticket } = ticketResponse.parse(await (await t.call('GET', `/tickets/${id}`)).json());
    expect(ticket.status).toBe('Closed');
    expect((await list('?pageSize=50')).tickets.map((row) => row.id)).not.toContain(id);
    expect((await list('?status=closed&pageSize=50')).tickets.map((row) => row.id)).toContain(id);

    const twice = await t.call('POST', `/tickets/${id}/close`, { staffName: 'Mod' });
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).message).toBe(`ticket ${id} is already closed`);
    const claim = await t.call('POST', `/tickets/${id}/claim`, { staffName: 'Mod', staffUuid: MOD });
    expect(claim.status).toBe(409);
    expect((await errorOf(claim)).message).toBe(`ticket ${id} is closed`);
  });

  it('answers 404 for a ticket that does not exist and 400 naming a bad field', async () => {
    const missing = await t.call('POST', '/tickets/nope/close', { staffName: 'Mod' });
    expect(missing.status).toBe(404);
    const bad = await t.call('POST', '/tickets/nope/claim', { staffName: 'Mod', staffUuid: 'mod' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^staffUuid: must be a UUID/);
    const blank = await t.call('POST', '/tickets/nope/close', { staffName: 'Mod', reason: ' ' });
    expect((await errorOf(blank)).message).toBe('reason: must not be blank');
  });
});

describe('staff replies', () => {
  async function loginCheck() {
    const response = await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch' });
    return loginCheckResponse.parse(await response.json()).pendingNotifications;
  }

  it('stores the reply and keeps a notice for the creator until it is acknowledged', async () => {
    const id = await openTicket();
    const response = await t.call('POST', `/tickets/${id}/staff-replies`, {
      staffName: 'Mod',
      message: 'We banned\njeb_ &cfor it, thanks for the report',
    });
    expect(response.status).toBe(200);
    const answer = staffReplyResponse.parse(await response.json());
    expect(answer.creatorUuid).toBe(NOTCH);
    expect(answer.notification).toBe(
      `Staff replied to your ticket ${id}: We banned jeb_ &cfor it, thanks for the report`,
    );

    const { ticket } = ticketResponse.parse(await (await t.call('GET', `/tickets/${id}`)).json());
    expect(ticket.replies.map((reply) => [reply.authorName, reply.message])).toEqual([
      ['Mod', 'We banned\njeb_ &cfor it, thanks for the report'],
    ]);

    const notices = await loginCheck();
    expect(notices).toContainEqual(
      expect.objectContaining({ id: answer.notificationId, message: answer.notification, type: 'ticket-reply' }),
    );
    const ack = await t.call('POST', '/notifications/acknowledge', {
      playerUuid: NOTCH,
      notificationIds: [answer.notificationId],
    });
    expect(ack.status).toBe(200);
    expect((await loginCheck()).map((notice) => notice.id)).not.toContain(answer.notificationId);
  });

  it('quotes a long reply cut to an excerpt', async () => {
    const id = await openTicket();
    const response = await t.call('POST', `/tickets/${id}/staff-replies`, {
      staffName: 'Mod',
      message: 'x'.repeat(300),
    });
    const answer = staffReplyResponse.parse(await response.json());
    expect(answer.notification).toBe(`Staff replied to your ticket ${id}: ${'x'.repeat(97)}...`);
  });

  it('a reply through the admin API tells the creator too', async () => {
    const id = await openTicket();
    const response = await t.admin('POST', `/networks/alpha/tickets/${id}/replies`, {
      authorName: 'Admin',
      message: 'fixed',
    });
    expect(response.status).toBe(200);
    const notices = await loginCheck();
    expect(notices.map((notice) => notice.message)).toContain(`Staff replied to your ticket ${id}: fixed`);
  });

  it("the network's unread reply notices are listed for servers to show players online there, until acknowledged", async () => {
    t.clock.advance(1000);
    const since = new Date(t.clock.now()).toISOString();
    const id = await openTicket();
    const response = await t.call('POST', `/tickets/${id}/staff-replies`, { staffName: 'Mod', message: 'seen it' });
    const answer = staffReplyResponse.parse(await response.json());
    const pending = async (apiKey?: string) => {
      const listed = await t.call('GET', `/notifications/pending?since=${since}`, undefined, apiKey);
      expect(listed.status).toBe(200);
      return pendingNoticesResponse.parse(await listed.json()).notifications;
    };
    expect(await pending()).toEqual([
      {
        id: answer.notificationId,
        playerUuid: NOTCH,
        message: `Staff replied to your ticket ${id}: seen it`,
        type: 'ticket-reply',
        createdAt: answer.createdAt,
      },
    ]);
    expect(await pending(KEY_B)).toEqual([]);
    await t.call('POST', '/notifications/acknowledge', { playerUuid: NOTCH, notificationIds: [answer.notificationId] });
    expect(await pending()).toEqual([]);

    const bad = await t.call('GET', '/notifications/pending?since=yesterday');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('since: must be an ISO 8601 timestamp');
  });
});

describe('staff ticket extension: limits', () => {
  it('the list spends the request bucket: a 429 with Retry-After once it is empty', async () => {
    const limited = await startTestService({ rateLimitPerMinute: 2 });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        statuses.push((await limited.call('GET', '/tickets')).status);
      }
      expect(statuses).toEqual([200, 200, 429]);
      const last = await limited.call('GET', '/notifications/pending?since=2026-01-01T00:00:00.000Z');
      expect(last.status).toBe(429);
      expect(last.headers.get('retry-after')).not.toBeNull();
    } finally {
      await limited.close();
    }
  });
});
