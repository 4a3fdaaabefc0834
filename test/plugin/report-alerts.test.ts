import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMessages } from '../../plugin/messages/messages.js';
import { messagesSchema } from '../../plugin/messages/schema.js';
import { ALERT_POLL_PAGE_SIZE, REPORTS_NOTIFY_PERMISSION, ReportAlerts } from '../../plugin/reports/report-alerts.js';
import type { StaffTicketSummary } from '../../src/contract/staff-ticket-schemas.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import { apiError, fakeApi } from './commands/helpers/fake-api.js';

const messages = createMessages(messagesSchema.parse(parse(readFileSync('config/messages.yml', 'utf8'))));
const START = Date.parse('2026-11-22T10:00:00.000Z');
const INTERVAL = 30_000;

function report(id: string, createdAtMs: number, extra: Partial<StaffTicketSummary> = {}): StaffTicketSummary {
  const at = new Date(createdAtMs).toISOString();
  return {
    id,
    type: 'player',
    subject: 'Player report: Alex',
    excerpt: 'x-ray',
    status: 'Open',
    priority: 'normal',
    creatorUuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
    creatorName: 'Steve',
    createdAt: at,
    updatedAt: at,
    reportedPlayerName: 'Alex',
    createdServer: 'lobby',
    assigneeName: null,
    ...extra,
  };
}

function player(name: string, permissions: string[]): Player & { seen: string[] } {
  const seen: string[] = [];
  return {
    kind: 'player',
    name,
    uuid: `00000000-0000-4000-8000-${name
      .padStart(12, '0')
      .slice(-12)
      .replace(/[^0-9a-f]/gi, '0')}`,
    seen,
    sendMessage: (line) => {
      seen.push(line);
    },
    hasPermission: (node) => permissions.includes(node),
    isOnline: () => true,
    kick: () => {},
  };
}

/** Alerts over a fake service whose open reports the test sets, a hand-moved clock, and chosen players online. */
function harness() {
  let now = START;
  let open: StaffTicketSummary[] = [];
  let online: Player[] = [];
  const consoleLines: string[] = [];
  const client = fakeApi({
    listTickets: async () => ({
      success: true,
      page: 1,
      pageSize: ALERT_POLL_PAGE_SIZE,
      total: open.length,
      tickets: open,
    }),
  });
  const alerts = new ReportAlerts({
    client,
    online: () => online,
    console: {
      kind: 'console',
      name: 'CONSOLE',
      sendMessage: (line) => consoleLines.push(line),
      hasPermission: () => true,
    },
    messages: () => messages,
    pollIntervalMs: () => INTERVAL,
    clock: { now: () => now },
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  return {
    alerts,
    client,
    consoleLines,
    setOpen: (tickets: StaffTicketSummary[]) => {
      open = tickets;
    },
    setOnline: (players: Player[]) => {
      online = players;
    },
    advance: (ms: number) => {
      now += ms;
    },
    polls: () => client.calls.filter((call) => call.method === 'listTickets').length,
  };
}

const plainText = (lines: string[]) => lines.map((line) => line.replace(/&[0-9a-fk-or]/gi, ''));

describe('staff alert of new reports', () => {
  it('tells holders of bailiff.reports.notify and the console of a report made here, once', () => {
    const h = harness();
    const staff = player('Staff', [REPORTS_NOTIFY_PERMISSION]);
    const plain = player('Plain', []);
    h.setOnline([staff, plain]);
    h.alerts.alert({ id: 'r1', reporterName: 'Steve', reportedName: 'Alex', reason: 'x-ray' });
    h.alerts.alert({ id: 'r1', reporterName: 'Steve', reportedName: 'Alex', reason: 'x-ray' });
    expect(plainText(staff.seen)).toEqual(['[Report] Steve reported Alex: x-ray (r1)']);
    expect(plain.seen).toEqual([]);
    expect(plainText(h.consoleLines)).toEqual(['[Report] Steve reported Alex: x-ray (r1)']);
  });

  it('learns where the list stands at the first poll (alerting only reports made since start), then alerts what is newer, oldest first, not twice', async () => {
    const h = harness();
    h.setOpen([report('since-start', START), report('old', START - 60_000)]);
    await h.alerts.tick();
    expect(h.polls()).toBe(1);
    expect(plainText(h.consoleLines)).toEqual(['[Report] Steve reported Alex: x-ray (since-start)']);

    const staff = player('Staff', [REPORTS_NOTIFY_PERMISSION]);
    h.setOnline([staff]);
    h.setOpen([report('b', START + 2000), report('a', START + 1000), report('old', START - 60_000)]);
    h.advance(INTERVAL - 1);
    await h.alerts.tick();
    expect(h.polls()).toBe(1);
    h.advance(1);
    await h.alerts.tick();
    expect(plainText(staff.seen)).toEqual([
      '[Report] Steve reported Alex: x-ray (a)',
      '[Report] Steve reported Alex: x-ray (b)',
    ]);

    h.advance(INTERVAL);
    await h.alerts.tick();
    expect(h.polls()).toBe(3);
    expect(staff.seen).toHaveLength(2);
  });

  it('a report already alerted from this server is not alerted again by the poll', async () => {
    const h = harness();
    const staff = player('Staff', [REPORTS_NOTIFY_PERMISSION]);
    h.setOnline([staff]);
    await h.alerts.tick();
    h.alerts.alert({ id: 'local', reporterName: 'Steve', reportedName: 'Alex', reason: 'x-ray' });
    h.setOpen([report('local', START + 1000)]);
    h.advance(INTERVAL);
    await h.alerts.tick();
    expect(staff.seen).toHaveLength(1);
  });

  it('polls only while a holder is online, and never while the service lacks the route or the gate is closed', async () => {
    const h = harness();
    await h.alerts.tick();
    h.setOnline([player('Plain', [])]);
    h.advance(INTERVAL);
    await h.alerts.tick();
    expect(h.polls()).toBe(1);

    h.setOnline([player('Staff', [REPORTS_NOTIFY_PERMISSION])]);
    h.client.extensions.markMissing('listTickets', START + INTERVAL);
    await h.alerts.tick();
    expect(h.polls()).toBe(1);

    h.client.extensions.markOffered('listTickets');
    h.client.gate.rateLimited('listTickets', START + INTERVAL, 60_000);
    await h.alerts.tick();
    expect(h.polls()).toBe(1);

    h.advance(60_000);
    await h.alerts.tick();
    expect(h.polls()).toBe(2);
  });

  it('a failed poll waits for the next interval', async () => {
    const failing = fakeApi({
      listTickets: () => Promise.reject(apiError('network', 'listTickets')),
    });
    const alerts = new ReportAlerts({
      client: failing,
      online: () => [],
      console: { kind: 'console', name: 'CONSOLE', sendMessage: () => {}, hasPermission: () => true },
      messages: () => messages,
      pollIntervalMs: () => INTERVAL,
      clock: { now: () => START },
      logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    await alerts.tick();
    await alerts.tick();
    expect(failing.calls).toHaveLength(1);
  });

  it('after a ticket is delivered from here, the next tick polls without waiting for the interval', async () => {
    const h = harness();
    const staff = player('Staff', [REPORTS_NOTIFY_PERMISSION]);
    h.setOnline([staff]);
    await h.alerts.tick();
    h.setOpen([report('fresh', START + 500)]);
    h.advance(1000);
    await h.alerts.tick();
    expect(h.polls()).toBe(1);
    h.alerts.pollSoon();
    await h.alerts.tick();
    expect(h.polls()).toBe(2);
    expect(plainText(staff.seen)).toEqual(['[Report] Steve reported Alex: x-ray (fresh)']);
  });

  it('with polling off (interval 0), a ticket delivered from here is still looked for at once', async () => {
    const staff = player('Staff', [REPORTS_NOTIFY_PERMISSION]);
    const client = fakeApi({
      listTickets: async () => ({
        success: true,
        page: 1,
        pageSize: ALERT_POLL_PAGE_SIZE,
        total: 1,
        tickets: [report('here', START + 30)],
      }),
    });
    const alerts = new ReportAlerts({
      client,
      online: () => [staff],
      console: { kind: 'console', name: 'CONSOLE', sendMessage: () => {}, hasPermission: () => true },
      messages: () => messages,
      pollIntervalMs: () => 0,
      clock: { now: () => START + 20 },
      logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    await alerts.tick();
    expect(client.calls).toHaveLength(0);
    alerts.pollSoon();
    await alerts.tick();
    await alerts.tick();
    expect(client.calls).toHaveLength(1);
    expect(plainText(staff.seen)).toEqual(['[Report] Steve reported Alex: x-ray (here)']);
  });
});
