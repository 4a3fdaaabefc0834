import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTicketResponse,
  playerTicketsResponse,
  ticketReplyResponse,
  ticketResponse,
} from '../../src/contract/schemas.js';
import { errorOf, JEB, KEY_A2, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

const SENT_AT = '2026-01-10T11:59:00.000Z';

function chatReport(overrides: Record<string, unknown> = {}) {
  return {
    creatorUuid: NOTCH,
    creatorName: 'Notch',
    type: 'chat',
    subject: 'Advertising',
    description: 'jeb_ keeps posting a server address\nsee the lines',
    reportedPlayerUuid: JEB,
    reportedPlayerName: 'jeb_',
    priority: 'high',
    chatMessages: [
      { playerName: 'jeb_', message: 'join play.example.net', sentAt: SENT_AT },
      { playerName: 'jeb_', message: 'best server', sentAt: '2026-01-10T11:59:30.000Z' },
    ],
    tags: ['chat', 'advertising'],
    replayUrl: 'https://replays.example.net/r/42',
    ...overrides,
  };
}

async function createTicket(body: unknown, apiKey?: string, headers: Record<string, string> = {}) {
  return fetch(`${t.base}/tickets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey ?? 'network-a-survival-key', ...headers },
    body: JSON.stringify(body),
  });
}

describe('ticket creation extension', () => {
  it('creates a ticket the existing ticket API returns, with its chat lines and server', async () => {
    const response = await createTicket(chatReport());
    expect(response.status).toBe(200);
    const created = createTicketResponse.parse(await response.json());
    expect(created).toMatchObject({ status: 200, success: true });

    const { ticket } = ticketResponse.parse(await (await t.call('GET', `/tickets/${created.ticketId}`)).json());
    expect(ticket).toMatchObject({
      id: created.ticketId,
      type: 'chat',
      subject: 'Advertising',
      description: 'jeb_ keeps posting a server address\nsee the lines',
      status: 'Open',
      priority: 'high',
      creatorUuid: NOTCH,
      creatorName: 'Notch',
      reportedPlayerUuid: JEB,
      reportedPlayerName: 'jeb_',
      tags: ['chat', 'advertising'],
      replies: [],
      createdAt: '2026-01-10T12:00:00.000Z',
      createdServer: 'survival',
      replayUrl: 'https://replays.example.net/r/42',
      chatMessages: chatReport().chatMessages,
    });
    const list = playerTicketsResponse.parse(await (await t.call('GET', `/tickets/player/${NOTCH}`)).json());
    expect(list.tickets.map((summary) => summary.id)).toContain(created.ticketId);
  });

  it('takes a chat report’s lines as modl’s plugin sends them (lines of text), beside objects', async () => {
    const chatMessages = [
      '[11:58:30] jeb_: join play.example.net',
      'Notch: stop it',
      'best server ever',
      '[2026-01-10T11:59:45.000Z] jeb_: last one',
      { playerName: 'jeb_', message: 'an object line', sentAt: SENT_AT },
    ];
    const response = await createTicket(chatReport({ chatMessages }));
    expect(response.status).toBe(200);
    const created = createTicketResponse.parse(await response.json());
    const { ticket } = ticketResponse.parse(await (await t.call('GET', `/tickets/${created.ticketId}`)).json());
    // The service's clock reads 2026-01-10T12:00:00Z: a clock time is the latest one before it.
    expect((ticket as { chatMessages?: unknown }).chatMessages).toEqual([
      { playerName: 'jeb_', message: 'join play.example.net', sentAt: '2026-01-10T11:58:30.000Z' },
      { playerName: 'Notch', message: 'stop it', sentAt: '2026-01-10T12:00:00.000Z' },
      { playerName: 'jeb_', message: 'best server ever', sentAt: '2026-01-10T12:00:00.000Z' },
      { playerName: 'jeb_', message: 'last one', sentAt: '2026-01-10T11:59:45.000Z' },
      { playerName: 'jeb_', message: 'an object line', sentAt: SENT_AT },
    ]);
  });

  it.each([
    [{ chatMessages: ['   '] }, 'chatMessages[0]: must not be blank'],
    [{ chatMessages: [42] }, 'chatMessages[0]: must be a chat line (playerName, message, sentAt) or a line of text'],
    [{ chatMessages: ['x'.repeat(513)] }, 'chatMessages[0]: must be at most 512 characters'],
    [{ subject: '   ' }, 'subject: must not be blank'],
    [{ type: 'complaint' }, 'type: must be one of player, chat, bug, support, appeal, application'],
    [{ creatorUuid: 'notch' }, 'creatorUuid: must be a UUID'],
    [{ subject: 'two\nlines' }, 'subject: must be one line without control characters'],
    [{ description: 'bell \u0007' }, 'description: must not contain control characters'],
    [{ description: 'x'.repeat(4001) }, 'description: must be at most 4000 characters'],
    [
      { chatMessages: [{ playerName: 'jeb_', message: 'hi', sentAt: 'yesterday' }] },
      'chatMessages[0].sentAt: must be an ISO 8601 timestamp',
    ],
    [
      { chatMessages: Array.from({ length: 101 }, () => ({ playerName: 'a', message: 'b', sentAt: SENT_AT })) },
      'chatMessages: must hold at most 100 lines',
    ],
    [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags: must hold at most 20 tags'],
    [{ replayUrl: 'javascript:alert(1)' }, 'replayUrl: must be an http(s) URL'],
    [{ staffOnly: true }, 'staffOnly: is not an accepted field'],
  ])('answers 400 naming the field for %j', async (change, message) => {
    const response = await createTicket(chatReport(change));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain(message);
  });

  it('keeps tickets inside their network', async () => {
    const created = createTicketResponse.parse(await (await createTicket(chatReport({ type: 'bug' }))).json());
    expect((await t.call('GET', `/tickets/${created.ticketId}`, undefined, KEY_A2)).status).toBe(200);
    const fromBeta = await t.call('GET', `/tickets/${created.ticketId}`, undefined, KEY_B);
    expect(fromBeta.status).toBe(404);
    const replyFromBeta = await t.call(
      'POST',
      `/tickets/${created.ticketId}/replies`,
      { playerUuid: NOTCH, playerName: 'Notch', message: 'hello?' },
      KEY_B,
    );
    expect(replyFromBeta.status).toBe(404);
  });

  it('creates once per Idempotency-Key, and refuses the key with another body', async () => {
    const key = { 'idempotency-key': '"report-1"' };
    const first = await createTicket(chatReport({ subject: 'Once' }), undefined, key);
    const again = await createTicket(chatReport({ subject: 'Once' }), undefined, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const firstId = createTicketResponse.parse(await first.json()).ticketId;
    expect(createTicketResponse.parse(await again.json()).ticketId).toBe(firstId);
    const list = playerTicketsResponse.parse(await (await t.call('GET', `/tickets/player/${NOTCH}`)).json());
    expect(list.tickets.filter((summary) => summary.subject === 'Once')).toHaveLength(1);

    const other = await createTicket(chatReport({ subject: 'Other' }), undefined, key);
    expect(other.status).toBe(422);
    expect((await errorOf(other)).message).toContain('Idempotency-Key');
  });

  it('takes replies from the ticket’s creator only; not yours and missing answer alike', async () => {
    const { ticketId } = createTicketResponse.parse(await (await createTicket(chatReport())).json());
    const replied = await t.call('POST', `/tickets/${ticketId}/replies`, {
      playerUuid: NOTCH.toUpperCase(),
      playerName: 'Notch',
      message: 'more: he did it again',
    });
    expect(replied.status).toBe(200);
    const { replyId } = ticketReplyResponse.parse(await replied.json());
    const { ticket } = ticketResponse.parse(await (await t.call('GET', `/tickets/${ticketId}`)).json());
    expect(ticket.replies).toEqual([
      { id: replyId, authorName: 'Notch', message: 'more: he did it again', createdAt: '2026-01-10T12:00:00.000Z' },
    ]);

    const notYours = await t.call('POST', `/tickets/${ticketId}/replies`, {
      playerUuid: JEB,
      playerName: 'jeb_',
      message: 'not my ticket',
    });
    const missing = await t.call('POST', '/tickets/no-such-ticket/replies', {
      playerUuid: JEB,
      playerName: 'jeb_',
      message: 'not my ticket',
    });
    expect(notYours.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((await errorOf(notYours)).message).toBe(`ticket ${ticketId} not found`);
    expect((await errorOf(missing)).message).toBe('ticket no-such-ticket not found');

    const blank = await t.call('POST', `/tickets/${ticketId}/replies`, {
      playerUuid: NOTCH,
      playerName: 'Notch',
      message: '',
    });
    expect((await errorOf(blank)).message).toBe('message: must not be blank');
  });

  it('spends the key’s write bucket', async () => {
    const limited = await startTestService({ writeRateLimitPerMinute: 2 });
    try {
      const post = () =>
        fetch(`${limited.base}/tickets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'network-a-survival-key' },
          body: JSON.stringify(chatReport()),
        });
      expect((await post()).status).toBe(200);
      expect((await post()).status).toBe(200);
      const third = await post();
      expect(third.status).toBe(429);
      expect((await errorOf(third)).message).toContain('writes a minute');
    } finally {
      await limited.close();
    }
  });
});
