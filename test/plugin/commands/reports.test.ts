import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_STAFF } from '../../../plugin/commands/report-actions.js';
import { parseReportsArgs, reportsCommand } from '../../../plugin/commands/reports.js';
import type { StaffTicketSummary, TicketListResponse } from '../../../src/contract/staff-ticket-schemas.js';
import { CommandUsageError, type Player } from '../../../src/runtime/plugin-api.js';
import { ALEX, NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError } from './helpers/fake-api.js';
import { type FakeSender, type FakeSenderOptions, fakeSender } from './helpers/fake-sender.js';

const MOD_UUID = '4566e69f-c907-48ee-8d71-d7ba5aa00d21';
const asMod: FakeSenderOptions = { kind: 'player', name: 'Mod', uuid: MOD_UUID, permissions: ['bailiff.reports'] };

const REPORT: StaffTicketSummary = {
  id: 'k3J9x0aQ2b',
  type: 'player',
  subject: 'Player report: Alex',
  excerpt: 'griefing &cmy base',
  status: 'Open',
  priority: 'normal',
  creatorUuid: STEVE.uuid,
  creatorName: 'Steve',
  createdAt: '2026-11-22T09:30:00.000Z',
  updatedAt: '2026-11-22T09:30:00.000Z',
  reportedPlayerName: 'Alex',
  createdServer: 'survival',
  assigneeName: null,
};

function listOf(tickets: StaffTicketSummary[], total = tickets.length): () => Promise<TicketListResponse> {
  return async () => ({ success: true, page: 1, pageSize: 8, total, tickets });
}

const replyAnswer = {
  status: 200,
  success: true,
  replyId: 'r-1',
  creatorUuid: STEVE.uuid,
  notificationId: 'r-1',
  notification: 'Staff replied to your ticket k3J9x0aQ2b: we &4banned Alex',
  createdAt: '2026-11-22T10:00:00.000Z',
  message: 'reply r-1 added to ticket k3J9x0aQ2b',
};

let deps: TestDeps;
afterEach(() => deps?.db.close());

async function run(args: string[], options: FakeSenderOptions = asMod): Promise<FakeSender> {
  const sender = fakeSender(options);
  await reportsCommand(deps).execute({ sender, label: 'reports', args });
  return sender;
}

function onlinePlayer(name: string, uuid: string): Player & { seen: string[] } {
  const seen: string[] = [];
  return {
    kind: 'player',
    name,
    uuid,
    seen,
    sendMessage: (line: string) => {
      seen.push(line);
    },
    hasPermission: () => false,
    isOnline: () => true,
    kick: () => {},
  };
}

describe('parseReportsArgs', () => {
  it.each([
    [[], { action: 'list', page: 1 }],
    [['3'], { action: 'list', page: 3 }],
    [['claim', 'abc'], { action: 'claim', id: 'abc' }],
    [['CLOSE', 'abc'], { action: 'close', id: 'abc', reason: '' }],
    [['close', 'abc', 'warned', 'him'], { action: 'close', id: 'abc', reason: 'warned him' }],
    [['reply', 'abc', 'we', 'are', 'on', 'it'], { action: 'reply', id: 'abc', text: 'we are on it' }],
    [
      ['punish', 'abc', 'chat-abuse'],
      { action: 'punish', id: 'abc', type: 'chat-abuse', severity: 'regular', reason: '' },
    ],
    [
      ['punish', 'abc', '6', 'Aggravated', 'ads', 'again'],
      { action: 'punish', id: 'abc', type: '6', severity: 'aggravated', reason: 'ads again' },
    ],
    [
      ['punish', 'abc', '6', 'spam', 'links'],
      { action: 'punish', id: 'abc', type: '6', severity: 'regular', reason: 'spam links' },
    ],
  ])('%j reads as %j', (args, expected) => {
    expect(parseReportsArgs(args)).toEqual(expected);
  });

  it.each([
    [['0'], undefined],
    [['claim'], 'usage: /reports claim <id>'],
    [['claim', 'a', 'b'], 'usage: /reports claim <id>'],
    [['close'], 'usage: /reports close <id> [reason]'],
    [['reply', 'abc'], 'usage: /reports reply <id> <text>'],
    [['punish', 'abc'], 'usage: /reports punish <id> <type> [lenient|regular|aggravated] [reason]'],
    [['reply', 'abc', ' '], 'usage: /reports reply <id> <text>'],
    [['delete', 'abc'], undefined],
  ])('%j is a usage error', (args, message) => {
    let thrown: unknown;
    try {
      parseReportsArgs(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CommandUsageError);
    if (message) expect((thrown as Error).message).toBe(message);
  });
});

describe('/reports', () => {
  it('lists the open reports of the network with who holds each, player text shown as text', async () => {
    deps = testDeps({
      api: { listTickets: listOf([REPORT, { ...REPORT, id: 'second', assigneeName: 'Helper' }], 9) },
    });
    const sender = await run([]);
    expect(plain(sender.messages)).toEqual([
      'Open reports (9), page 1/2:',
      '#k3J9x0aQ2b Steve reported Alex: griefing &my base (survival, 2026-11-22 09:30 UTC) [unclaimed]',
      '#second Steve reported Alex: griefing &my base (survival, 2026-11-22 09:30 UTC) [claimed by Helper]',
      'Next page: /reports 2',
    ]);
    // The reporter's `&c` is escaped: it shows as typed, it colours nothing.
    expect(sender.messages[1]).toContain('griefing &&cmy base');
    expect(deps.client.calls[0]?.args[0]).toEqual({ status: 'open', type: 'player,chat', page: 1, pageSize: 8 });
  });

  it('says when there are none, and when the page is past the end', async () => {
    deps = testDeps({ api: { listTickets: listOf([]) } });
    expect(plain((await run([])).messages)).toEqual(['No open reports.']);
    deps.db.close();
    deps = testDeps({ api: { listTickets: listOf([], 3) } });
    expect(plain((await run(['4'])).messages)).toEqual(['There is no page 4; there are 1.']);
  });

  it('against a service without the routes says so, and asks nothing while that is remembered', async () => {
    deps = testDeps({
      api: {
        listTickets: async () => {
          deps.client.extensions.markMissing('listTickets', NOW);
          throw apiError('http', 'listTickets', { status: 404 });
        },
      },
    });
    expect(plain((await run([])).messages)).toEqual([
      'The moderation service does not offer staff actions on reports.',
    ]);
    expect(plain((await run(['claim', 'abc'])).messages)).toEqual([
      'The moderation service does not offer staff actions on reports.',
    ]);
    expect(deps.client.calls.map((call) => call.method)).toEqual(['listTickets']);
  });

  it('claims as the player; a claim someone else holds shows the service reason', async () => {
    let claims = 0;
    deps = testDeps({
      api: {
        claimTicket: async () => {
          claims += 1;
          if (claims === 1) {
            return {
              status: 200,
              success: true,
              ticketId: 'abc',
              ticketStatus: 'Open',
              assigneeName: 'Mod',
              message: 'ok',
            };
          }
          throw apiError('http', 'claimTicket', { status: 409, serviceMessage: 'ticket abc is claimed by Other' });
        },
      },
    });
    expect(plain((await run(['claim', 'abc'])).messages)).toEqual(['You claimed report abc.']);
    expect(deps.client.calls[0]?.args[0]).toEqual({ id: 'abc', body: { staffName: 'Mod', staffUuid: MOD_UUID } });
    expect(plain((await run(['claim', 'abc'])).messages)).toEqual(['ticket abc is claimed by Other']);
  });

  it('claims from the console under the name Console', async () => {
    deps = testDeps({
      api: {
        claimTicket: async () => ({
          status: 200,
          success: true,
          ticketId: 'abc',
          ticketStatus: 'Open',
          assigneeName: 'Console',
          message: 'ok',
        }),
      },
    });
    await run(['claim', 'abc'], { kind: 'console' });
    expect(deps.client.calls[0]?.args[0]).toEqual({
      id: 'abc',
      body: { staffName: CONSOLE_STAFF.name, staffUuid: CONSOLE_STAFF.uuid },
    });
  });

  it('a 404 for a report, from a service that has the routes, is a missing report (and the route stays offered)', async () => {
    deps = testDeps({
      api: {
        listTickets: listOf([]),
        closeTicket: async () => {
          deps.client.extensions.markMissing('closeTicket', NOW);
          throw apiError('http', 'closeTicket', { status: 404, serviceMessage: 'ticket nope not found' });
        },
      },
    });
    expect(plain((await run(['close', 'nope', 'done'])).messages)).toEqual(['No report nope was found.']);
    expect(deps.client.calls[0]?.args[0]).toEqual({
      id: 'nope',
      body: { staffName: 'Mod', staffUuid: MOD_UUID, reason: 'done' },
    });
    expect(deps.client.extensions.state('closeTicket')).toEqual({ state: 'offered' });
  });

  it('a reply reaches its creator online here at once, as text, and their notice is acknowledged', async () => {
    const steve = onlinePlayer('Steve', STEVE.uuid);
    deps = testDeps({ api: { staffReplyToTicket: async () => replyAnswer }, online: [steve] });
    const sender = await run(['reply', 'k3J9x0aQ2b', 'we', '&4banned', 'Alex']);
    expect(deps.client.calls[0]?.args[0]).toEqual({
      id: 'k3J9x0aQ2b',
      body: { staffName: 'Mod', staffUuid: MOD_UUID, message: 'we &4banned Alex' },
    });
    expect(steve.seen).toEqual([expect.stringContaining('Staff replied to your ticket k3J9x0aQ2b: we &&4banned Alex')]);
    expect(plain(sender.messages)).toEqual(['Reply sent to report k3J9x0aQ2b; Steve saw it now.']);
    expect(deps.outboxRows()).toEqual([
      expect.objectContaining({
        operation: 'acknowledgeNotifications',
        payload: { playerUuid: STEVE.uuid, notificationIds: ['r-1'], acknowledgedAt: new Date(NOW).toISOString() },
      }),
    ]);
  });

  it('a reply to a creator who is not online here is left for their next join', async () => {
    deps = testDeps({
      api: { staffReplyToTicket: async () => replyAnswer },
      online: [onlinePlayer('Alex', ALEX.uuid)],
    });
    const sender = await run(['reply', 'k3J9x0aQ2b', 'noted']);
    expect(plain(sender.messages)).toEqual([
      'Reply sent to report k3J9x0aQ2b; its creator is not online here and is told where they play, or at their next join.',
    ]);
    expect(deps.outboxRows()).toEqual([]);
  });

  it('a service that cannot be reached is reported in one line', async () => {
    deps = testDeps({ api: { listTickets: () => Promise.reject(apiError('network', 'listTickets')) } });
    const sender = await run([]);
    expect(sender.messages).toHaveLength(1);
    expect(plain(sender.messages)[0]).toContain('reports');
  });
});
