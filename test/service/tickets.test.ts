import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playerTicketsResponse, type Ticket, ticketResponse } from '../../src/contract/schemas.js';
import { errorOf, JEB, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

const FULL_ONLY = ['description', 'reportedPlayerUuid', 'reportedPlayerName', 'tags', 'replies'];

function ticketAt(index: number, creatorUuid = NOTCH): Ticket {
  const at = new Date(Date.parse('2026-01-01T00:00:00.000Z') + index * 60_000).toISOString();
  return {
    id: `t-${index}`,
    type: index % 2 ? 'bug' : 'player',
    subject: `subject ${index}`,
    description: `description ${index}`,
    status: 'Open',
    priority: 'normal',
    creatorUuid,
    creatorName: 'Notch',
    reportedPlayerUuid: index % 2 ? null : JEB,
    reportedPlayerName: index % 2 ? null : 'jeb_',
    tags: ['chat'],
    replies: [],
    createdAt: at,
    updatedAt: at,
  };
}

describe('tickets', () => {
  it('reads a full ticket with its replies, added through the admin API', async () => {
    expect((await t.admin('POST', '/networks/alpha/tickets', ticketAt(0))).status).toBe(200);
    const reply = await t.admin('POST', '/networks/alpha/tickets/t-0/replies', {
      authorName: 'Helper',
      message: 'on it',
    });
    expect(reply.status).toBe(200);
    const response = await t.call('GET', '/tickets/t-0');
    const { ticket } = ticketResponse.parse(await response.json());
    expect(ticket).toMatchObject({
      id: 't-0',
      description: 'description 0',
      reportedPlayerName: 'jeb_',
      tags: ['chat'],
    });
    expect(ticket.replies).toEqual([
      { id: 'id-1', authorName: 'Helper', message: 'on it', createdAt: '2026-01-10T12:00:00.000Z' },
    ]);
    expect(ticket.updatedAt).toBe('2026-01-10T12:00:00.000Z');
  });

  it('lists at most 50 of a player’s tickets, newest first, in the summary form only', async () => {
    for (let i = 1; i <= 55; i += 1) await t.admin('POST', '/networks/alpha/tickets', ticketAt(i));
    await t.admin('POST', '/networks/alpha/tickets', { ...ticketAt(99, JEB), id: 'jeb-ticket' });
    const response = await t.call('GET', `/tickets/player/${NOTCH.toUpperCase()}`);
    const { tickets } = playerTicketsResponse.parse(await response.json());
    expect(tickets).toHaveLength(50);
    expect(tickets[0]!.id).toBe('t-55');
    expect(tickets[49]!.id).toBe('t-6');
    for (const summary of tickets) for (const field of FULL_ONLY) expect(summary).not.toHaveProperty(field);
    expect(Object.keys(tickets[0]!).sort()).toEqual(
      ['id', 'type', 'subject', 'status', 'priority', 'creatorUuid', 'creatorName', 'createdAt', 'updatedAt'].sort(),
    );
  });

  it('answers a reader (readerUuid) asking for a ticket of another player exactly as a missing ticket', async () => {
    const own = await t.call('GET', `/tickets/t-0?readerUuid=${NOTCH}`);
    expect(ticketResponse.parse(await own.json()).ticket.id).toBe('t-0');
    const others = await t.call('GET', `/tickets/t-0?readerUuid=${JEB}`);
    const missing = await t.call('GET', `/tickets/no-such-ticket?readerUuid=${JEB}`);
    expect(others.status).toBe(404);
    expect(missing.status).toBe(404);
    const [othersError, missingError] = [await errorOf(others), await errorOf(missing)];
    expect(othersError.message).toBe('ticket t-0 not found');
    expect({ ...othersError, message: '' }).toEqual({ ...missingError, message: '' });
    const bad = await t.call('GET', '/tickets/t-0?readerUuid=someone');
    expect(bad.status).toBe(400);
  });

  it("hides another network's tickets (404 / empty list)", async () => {
    const response = await t.call('GET', '/tickets/t-0', undefined, KEY_B);
    expect((await errorOf(response)).status).toBe(404);
    const list = await t.call('GET', `/tickets/player/${NOTCH}`, undefined, KEY_B);
    expect(playerTicketsResponse.parse(await list.json()).tickets).toEqual([]);
  });
});
