import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { tearDownGameTest } from './helpers/teardown.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Reporter', 'Spammer', 'Bystander', 'Flooder'];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Players report in game against the real reference service (behind the fault-injecting proxy):
 * a chat report carries the reported player's lines with their times, a self-report is refused, a
 * reply whose answer is lost is sent again with the same Idempotency-Key and added once, and a
 * report made while the service is down is queued, then delivered exactly once when it is back on
 * the same port and SQLite file, and the reporter is told its ticket id.
 */
describe('player reports', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-reports-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let servicePort = 0;
  let game: RunningGameServer | undefined;
  let proxy: ContractProxy | undefined;
  const bots: TestBot[] = [];
  const api = () => createModerationClient({ baseUrl: `http://127.0.0.1:${servicePort}`, apiKey: API_KEY });

  const startServiceNow = async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), port: servicePort, players: PLAYERS });
    servicePort = service.port;
  };
  const sees = (who: TestBot, pattern: RegExp, from = 0) =>
    waitFor(`${who.name} to see ${pattern}`, () => who.seen.slice(from).find((line) => pattern.test(line)), 20_000);
  /** Sends a line and waits for the answer matching `pattern` among the lines seen after it. */
  const ask = async (who: TestBot, line: string, pattern: RegExp) => {
    const from = who.seen.length;
    who.bot.chat(line);
    return sees(who, pattern, from);
  };

  beforeAll(async () => {
    await startServiceNow();
    const upstream = `http://127.0.0.1:${servicePort}`;
    proxy = await startContractProxy({ upstream: () => upstream, profile: 'reference' });
    const server = join(dir, 'server');
    writeTestServerFolder(server, {
      sync: { pollIntervalMs: 500, stream: 'off' },
      outbox: { baseDelayMs: 200, maxDelayMs: 800 },
      reports: { cooldownMs: 60_000, chatLines: 5 },
    });
    game = await startGameServerProcess(server, {
      BAILIFF_API_URL: proxy.url,
      BAILIFF_API_KEY: API_KEY,
    });
    for (const name of PLAYERS) bots.push(await mustJoin(game.port, name));
  });

  afterAll(() => tearDownGameTest({ bots, game, service, proxy, dir }));

  it('opens a chat report holding the reported lines, refuses a self-report, takes a reply, and delivers a report made while the service is down once', async () => {
    const [reporter, spammer] = bots as [TestBot, TestBot];
    const madeFrom = Date.now();
    spammer.bot.chat('buy cheap gold at my shop');
    await sees(reporter, /buy cheap gold at my shop/);
    spammer.bot.chat('&4visit spam.example now');
    await sees(reporter, /visit spam\.example now/);

    const sent = await ask(reporter, '/chatreport Spammer spam', /report on Spammer is ticket #\S+\./);
    const chatTicketId = /ticket #(\S+)\./.exec(sent)![1]!;
    const { ticket } = await api().getTicket({ id: chatTicketId });
    expect(ticket).toMatchObject({
      type: 'chat',
      creatorUuid: offlineUuid('Reporter'),
      creatorName: 'Reporter',
      reportedPlayerUuid: offlineUuid('Spammer'),
      reportedPlayerName: 'Spammer',
      description: 'spam',
    });
    const lines = (ticket as { chatMessages?: Array<{ playerName: string; message: string; sentAt: string }> })
      .chatMessages;
    expect(lines?.map(({ playerName, message }) => ({ playerName, message }))).toEqual([
      { playerName: 'Spammer', message: 'buy cheap gold at my shop' },
      // A player's text stays text: the colour code is sent as typed.
      { playerName: 'Spammer', message: '&4visit spam.example now' },
    ]);
    for (const line of lines ?? []) {
      expect(Date.parse(line.sentAt)).toBeGreaterThanOrEqual(madeFrom - 1000);
      expect(Date.parse(line.sentAt)).toBeLessThanOrEqual(Date.now());
    }

    await ask(reporter, '/report Reporter he is me', /You cannot report yourself\./);

    // The reply reaches the service but its answer is lost: queued, sent again with the same key, added once.
    proxy!.inject({ method: 'POST', path: /\/replies$/, times: 1, fault: { kind: 'drop-after' } });
    await ask(reporter, `/ticket ${chatTicketId} reply they are still at it`, /your reply right now: it is queued/);
    await sees(reporter, new RegExp(`Your queued reply was added to ticket #${escaped(chatTicketId)}\\.`));
    const replied = await api().getTicket({ id: chatTicketId });
    expect(replied.ticket.replies.map(({ authorName, message }) => ({ authorName, message }))).toEqual([
      { authorName: 'Reporter', message: 'they are still at it' },
    ]);
    const replyRequests = proxy!.log.requests.filter((entry) => entry.path.endsWith('/replies'));
    expect(replyRequests.map(({ upstreamStatus, status }) => ({ upstreamStatus, status }))).toEqual([
      { upstreamStatus: 200, status: undefined },
      { upstreamStatus: 200, status: 200 },
    ]);
    expect(new Set(replyRequests.map((entry) => entry.idempotencyKey)).size).toBe(1);
    expect(replyRequests[0]?.idempotencyKey).toMatch(/^"reply:/);

    await service!.close();
    service = undefined;
    const fromRequest = proxy!.log.requests.length;
    await ask(reporter, '/report Spammer griefed my house', /report on Spammer is queued and will be sent/);

    await startServiceNow();
    const delivered = await sees(reporter, /Your queued report was delivered as ticket #\S+\./);
    const playerTicketId = /ticket #(\S+)\./.exec(delivered)![1]!;
    const { tickets } = await api().getPlayerTickets({ uuid: offlineUuid('Reporter') });
    const reports = tickets.filter((summary) => summary.type === 'player');
    expect(reports.map((summary) => summary.id)).toEqual([playerTicketId]);
    expect(reports[0]?.subject).toBe('Player report: Spammer');
    expect(tickets).toHaveLength(2);
    // Every attempt, while down and after, was the same call.
    const attempts = proxy!.log.requests.slice(fromRequest).filter((entry) => entry.path.endsWith('/tickets'));
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts.map((entry) => entry.idempotencyKey)).size).toBe(1);
    expect(attempts.at(-1)).toMatchObject({ upstreamStatus: 200, status: 200 });
    const { ticket: queued } = await api().getTicket({ id: playerTicketId });
    expect(queued).toMatchObject({ description: 'griefed my house', reportedPlayerName: 'Spammer' });
  });

  it('lets one report of a burst through: the others are told to wait', async () => {
    const flooder = bots[3]!;
    const from = flooder.seen.length;
    for (let at = 0; at < 5; at += 1) flooder.bot.chat(`/report Spammer flood ${at}`);
    await sees(flooder, /report on Spammer is ticket #/, from);
    await waitFor(
      'four refusals',
      () => flooder.seen.slice(from).filter((line) => /reported recently/.test(line)).length === 4,
    );
    const { tickets } = await api().getPlayerTickets({ uuid: offlineUuid('Flooder') });
    expect(tickets).toHaveLength(1);
  });

  it('says a service without ticket creation does not take reports, and remembers it', async () => {
    const bystander = bots[2]!;
    const notFound = {
      status: 404,
      success: false,
      error: 'Not Found',
      message: 'no route POST /v1/minecraft/tickets',
    };
    proxy!.inject({
      method: 'POST',
      path: /\/tickets$/,
      times: 1,
      fault: { kind: 'answer', status: 404, body: JSON.stringify(notFound) },
    });
    const fromRequest = proxy!.log.requests.length;
    await ask(bystander, '/report Spammer spamming', /moderation service does not take reports/);
    await ask(bystander, '/chatreport Spammer spamming', /moderation service does not take reports/);
    const asked = proxy!.log.requests.slice(fromRequest).filter((entry) => entry.path.endsWith('/tickets'));
    expect(asked.map((entry) => entry.status)).toEqual([404]);
  });
});
