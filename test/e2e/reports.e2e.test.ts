import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Reporter', 'Spammer'];

/**
 * Players report in game against the real reference service: a chat report carries the reported
 * player's lines with their times, a self-report is refused, a reply reaches the ticket, and a
 * report made while the service is down is queued, then delivered exactly once when it is back
 * on the same port and SQLite file, and the reporter is told its ticket id.
 */
describe('player reports', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-reports-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let servicePort = 0;
  let game: RunningGameServer | undefined;
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
    const server = join(dir, 'server');
    writeTestServerFolder(server, {
      sync: { pollIntervalMs: 500, stream: 'off' },
      outbox: { baseDelayMs: 200, maxDelayMs: 800 },
      reports: { cooldownMs: 60_000, chatLines: 5 },
    });
    game = await startGameServerProcess(server, {
      BAILIFF_API_URL: `http://127.0.0.1:${servicePort}`,
      BAILIFF_API_KEY: API_KEY,
    });
    bots.push(await mustJoin(game.port, 'Reporter'), await mustJoin(game.port, 'Spammer'));
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

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

    await ask(reporter, `/ticket ${chatTicketId} reply they are still at it`, /Your reply was added to ticket #/);
    const replied = await api().getTicket({ id: chatTicketId });
    expect(replied.ticket.replies.map(({ authorName, message }) => ({ authorName, message }))).toEqual([
      { authorName: 'Reporter', message: 'they are still at it' },
    ]);

    await service!.close();
    service = undefined;
    await ask(reporter, '/report Spammer griefed my house', /report on Spammer is queued and will be sent/);

    await startServiceNow();
    const delivered = await sees(reporter, /Your queued report was delivered as ticket #\S+\./);
    const playerTicketId = /ticket #(\S+)\./.exec(delivered)![1]!;
    const { tickets } = await api().getPlayerTickets({ uuid: offlineUuid('Reporter') });
    const reports = tickets.filter((summary) => summary.type === 'player');
    expect(reports.map((summary) => summary.id)).toEqual([playerTicketId]);
    expect(reports[0]?.subject).toBe('Player report: Spammer');
    expect(tickets).toHaveLength(2);
    const { ticket: queued } = await api().getTicket({ id: playerTicketId });
    expect(queued).toMatchObject({ description: 'griefed my house', reportedPlayerName: 'Spammer' });
  });
});
