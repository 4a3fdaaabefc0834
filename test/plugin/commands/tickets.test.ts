import { afterEach, describe, expect, it } from 'vitest';
import { ticketCommand } from '../../../plugin/commands/ticket.js';
import { ticketsCommand } from '../../../plugin/commands/tickets.js';
import { ApiError } from '../../../src/api/errors.js';
import type { Ticket, TicketSummary } from '../../../src/contract/schemas.js';
import { parseColourCodes } from '../../../src/runtime/colour-codes.js';
import { ALEX, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError } from './helpers/fake-api.js';
import { type FakeSenderOptions, fakeSender } from './helpers/fake-sender.js';

const SUMMARY: TicketSummary = {
  id: 't-1',
  type: 'player',
  subject: 'Griefer at spawn',
  status: 'Open',
  priority: 'high',
  creatorUuid: STEVE.uuid,
  creatorName: 'Steve',
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-21T09:30:00.000Z',
};
const TICKET: Ticket = {
  ...SUMMARY,
  description: 'Alex broke my house.',
  reportedPlayerUuid: ALEX.uuid,
  reportedPlayerName: 'Alex',
  tags: ['grief'],
  replies: [{ id: 'r-1', authorName: 'Mod', message: 'Looking into it.', createdAt: '2026-11-21T09:30:00.000Z' }],
};

const asSteve: FakeSenderOptions = {
  kind: 'player',
  name: 'Steve',
  uuid: STEVE.uuid,
  permissions: ['bailiff.tickets'],
};

let deps: TestDeps;
afterEach(() => deps?.db.close());

function withTickets(): TestDeps {
  return testDeps({
    api: {
      getPlayerTickets: async () => ({ tickets: [SUMMARY] }),
      getTicket: async () => ({ ticket: TICKET }),
    },
  });
}

async function tickets(args: string[], options: FakeSenderOptions) {
  const sender = fakeSender(options);
  await ticketsCommand(deps).execute({ sender, label: 'tickets', args });
  return sender;
}

async function ticket(args: string[], options: FakeSenderOptions) {
  const sender = fakeSender(options);
  await ticketCommand(deps).execute({ sender, label: 'ticket', args });
  return sender;
}

describe('/tickets', () => {
  it("lists the player's own tickets", async () => {
    deps = withTickets();
    const sender = await tickets([], asSteve);
    expect(plain(sender.messages)).toEqual([
      'Tickets of Steve (1):',
      '#t-1 Griefer at spawn [Open, high] 2026-11-21 09:30 UTC',
    ]);
    expect(deps.client.calls).toEqual([
      { method: 'getPlayerTickets', args: [{ uuid: STEVE.uuid }, { lane: 'player' }] },
    ]);
  });

  it('lets a player name themself, whatever the case of the UUID', async () => {
    deps = withTickets();
    const sender = await tickets(['STEVE'], { ...asSteve, uuid: STEVE.uuid.toUpperCase() });
    expect(plain(sender.messages)[0]).toBe('Tickets of Steve (1):');
  });

  it("refuses another player's tickets without bailiff.tickets.others", async () => {
    deps = withTickets();
    const sender = await tickets(['Alex'], asSteve);
    expect(plain(sender.messages)).toEqual(['You may only list your own tickets.']);
    expect(deps.client.calls).toEqual([]);
  });

  it("lists another player's tickets with bailiff.tickets.others, and from the console", async () => {
    deps = testDeps({ api: { getPlayerTickets: async () => ({ tickets: [] }) } });
    const staff = await tickets(['alex'], { kind: 'player', name: 'Mod', permissions: ['bailiff.tickets.others'] });
    const console = await tickets(['Alex'], { kind: 'console' });
    expect(plain(staff.messages)).toEqual(['Alex has no tickets.']);
    expect(plain(console.messages)).toEqual(['Alex has no tickets.']);
    expect(deps.client.calls.map((call) => call.args)).toEqual([
      [{ uuid: ALEX.uuid }, { lane: 'player' }],
      [{ uuid: ALEX.uuid }, undefined],
    ]);
  });

  it('asks the console to name a player', async () => {
    deps = withTickets();
    const sender = await tickets([], { kind: 'console' });
    expect(plain(sender.messages)).toEqual(['From the console, name a player: /tickets <player>']);
  });

  it('reports a 429 or 500 as a clear message', async () => {
    deps = testDeps({
      api: { getPlayerTickets: () => Promise.reject(apiError('http', 'getPlayerTickets', { status: 500 })) },
    });
    const sender = await tickets([], asSteve);
    expect(plain(sender.messages)).toEqual([
      'The moderation service cannot be reached right now (tickets). Try again later.',
    ]);
  });
});

describe('/ticket', () => {
  it('shows subject, status, priority, description and replies of an own ticket', async () => {
    deps = withTickets();
    const sender = await ticket(['t-1'], asSteve);
    expect(plain(sender.messages)).toEqual([
      'Ticket #t-1: Griefer at spawn [Open, high, player]',
      'By Steve, reported player Alex, opened 2026-11-20 08:00 UTC',
      'Alex broke my house.',
      '2026-11-21 09:30 UTC Mod: Looking into it.',
    ]);
    expect(deps.client.calls).toEqual([
      { method: 'getTicket', args: [{ id: 't-1', query: { readerUuid: STEVE.uuid } }, { lane: 'player' }] },
    ]);
  });

  it("answers someone else's ticket exactly as a missing one without the permission, shows it with it", async () => {
    deps = withTickets();
    const alex = await ticket(['t-1'], { kind: 'player', name: 'Alex', uuid: ALEX.uuid, permissions: [] });
    const staff = await ticket(['t-1'], { kind: 'player', name: 'Mod', permissions: ['bailiff.tickets.others'] });
    expect(plain(alex.messages)).toEqual(['No ticket t-1 was found among the tickets you may read.']);
    expect(plain(staff.messages)[0]).toBe('Ticket #t-1: Griefer at spawn [Open, high, player]');
    // The player's read names them, so the reference service hides others' tickets itself; staff read any.
    expect(deps.client.calls.map((call) => call.args[0])).toEqual([
      { id: 't-1', query: { readerUuid: ALEX.uuid } },
      { id: 't-1' },
    ]);
  });

  it('answers an unknown ticket with the same line as a ticket that is not yours', async () => {
    deps = testDeps({
      api: {
        getTicket: () =>
          Promise.reject(apiError('http', 'getTicket', { status: 404, serviceMessage: 'ticket t-404 not found' })),
      },
    });
    const sender = await ticket(['t-404'], { kind: 'player', name: 'Alex', uuid: ALEX.uuid, permissions: [] });
    expect(plain(sender.messages)).toEqual(['No ticket t-404 was found among the tickets you may read.']);
  });
});

describe('calls players trigger', () => {
  it('a player asking again within the cooldown is told to slow down, and nothing is sent', async () => {
    deps = withTickets();
    await tickets([], asSteve);
    const again = await ticket(['t-1'], asSteve);
    expect(plain(again.messages)).toEqual(['Slow down: you can ask again in 3 s.']);
    expect(deps.client.calls.map((call) => call.method)).toEqual(['getPlayerTickets']);
  });

  it('the same question within the cache time is answered without asking the service again', async () => {
    deps = withTickets();
    await tickets([], asSteve);
    const again = await tickets([], asSteve);
    expect(plain(again.messages)[0]).toBe('Tickets of Steve (1):');
    expect(deps.client.calls).toHaveLength(1);
  });

  it('the console is never held back', async () => {
    deps = withTickets();
    await tickets(['Steve'], { kind: 'console' });
    await tickets(['Steve'], { kind: 'console' });
    expect(deps.client.calls).toHaveLength(2);
  });

  it("tells the player the service is busy when players' share of the budget is spent", async () => {
    deps = testDeps({
      api: {
        getPlayerTickets: () =>
          Promise.reject(
            new ApiError({
              kind: 'rate_limited',
              endpoint: 'getPlayerTickets',
              gated: 'rate-limited',
              retryAfterMs: 1500,
              message: 'getPlayerTickets: not sent: player-triggered calls are held back',
            }),
          ),
      },
    });
    const sender = await tickets([], asSteve);
    expect(plain(sender.messages)).toEqual(['The moderation service is busy: try again in 2 s.']);
  });
});

describe('what players wrote in tickets', () => {
  it('is shown as written: their & and § codes never colour the message, control characters are removed', async () => {
    deps = testDeps({
      api: {
        getTicket: async () => ({
          ticket: {
            ...TICKET,
            subject: '&4&l[Server] §cfree op',
            description: 'line one\nline two &kx',
            replies: [{ ...TICKET.replies[0]!, authorName: '&4Admin', message: '&aapproved' }],
          },
        }),
      },
    });
    const sender = await ticket(['t-1'], asSteve);
    const segments = sender.messages.map((line) => parseColourCodes(line));
    const shown = segments.map((line) => line.map((segment) => segment.text).join(''));
    expect(shown).toContain('Ticket #t-1: &4&l[Server] &cfree op [Open, high, player]');
    expect(shown).toContain('line oneline two &kx');
    expect(shown.at(-1)).toBe('2026-11-21 09:30 UTC &4Admin: &aapproved');
    const styles = segments
      .flat()
      .filter((segment) => segment.text.includes('[Server]') || segment.text.includes('Admin'));
    for (const segment of styles) expect(segment.color === 'dark_red' || segment.bold === true).toBe(false);
  });
});
