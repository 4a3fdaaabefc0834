import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['StaffBot', 'Reporter', 'Spammer', 'Helper'];

/**
 * Punish and close in game, with real bots against the reference service: a chat report sent in
 * modl's shape (lines of text) is punished from `/reports punish` by StaffBot (bailiff.reports and
 * bailiff.punish): the reported player is muted at once, the punishment is linked to the report,
 * the reporter is told in game, and the report is closed. Helper (bailiff.reports only) may not.
 */
describe('/reports punish end to end (bailiff start, reference service)', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-report-punish-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let game: RunningGameServer | undefined;
  const bots = new Map<string, TestBot>();
  let reportId = '';

  const api = () => createModerationClient({ baseUrl: service!.url, apiKey: API_KEY });
  const bot = (name: string) => bots.get(name)!;
  const sees = (who: TestBot, text: string, timeoutMs = 15_000) =>
    waitFor(`${who.name} to see "${text}"`, () => who.seen.find((line) => line.includes(text)), timeoutMs);

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS });
    const server = join(dir, 'server');
    writeTestServerFolder(server, { ticketUpdates: { pollIntervalMs: 1000 } });
    writeFileSync(
      join(server, 'permissions.yml'),
      'players:\n  StaffBot: [bailiff.reports, bailiff.punish]\n  Helper: [bailiff.reports]\n',
    );
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    for (const name of ['StaffBot', 'Reporter', 'Spammer', 'Helper']) bots.set(name, await mustJoin(game.port, name));
    const created = await api().createTicket({
      creatorUuid: offlineUuid('Reporter'),
      creatorName: 'Reporter',
      type: 'chat',
      subject: 'Chat report: Spammer',
      description: 'advertising another server',
      reportedPlayerUuid: offlineUuid('Spammer'),
      reportedPlayerName: 'Spammer',
      chatMessages: ['[11:58:30] Spammer: join play.example.net', 'Spammer: best server'],
    });
    reportId = created.ticketId;
  });

  afterAll(async () => {
    for (const each of bots.values()) await each.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a holder of bailiff.reports without bailiff.punish may not punish from a report', async () => {
    bot('Helper').bot.chat(`/reports punish ${reportId} chat-abuse spam`);
    await sees(bot('Helper'), 'Punishing from a report needs the bailiff.punish permission.');
    const { ticket } = await api().getTicket({ id: reportId });
    expect(ticket.status).toBe('Open');
  });

  it('punishes the reported player, links the punishment, tells the reporter and closes the report', async () => {
    bot('StaffBot').bot.chat(`/reports punish ${reportId} chat-abuse advertising in chat`);
    await sees(bot('StaffBot'), `Report ${reportId} closed.`);
    await sees(
      bot('Reporter'),
      `Staff replied to your ticket ${reportId}: Thank you for your report: we have acted on it.`,
    );
    const { ticket } = await api().getTicket({ id: reportId });
    expect(ticket.status).toBe('Closed');
    expect(ticket.replies.map((reply) => [reply.authorName, reply.message])).toEqual([
      ['StaffBot', 'Thank you for your report: we have acted on it.'],
    ]);
    const networkId = (await service!.context.stores.networks.findNetwork('e2e'))!;
    const [linked] = await service!.context.stores.tickets.punishmentsOf(networkId, reportId);
    expect(linked).toMatchObject({
      targetUuid: offlineUuid('Spammer'),
      issuerName: 'StaffBot',
      typeOrdinal: 6,
      reason: 'advertising in chat',
      status: 'active',
    });
    // Muted here at once: the next line does not reach the others.
    bot('Spammer').bot.chat('one more ad');
    await sees(bot('Spammer'), 'muted');
    bot('StaffBot').bot.chat('control-after-mute');
    await sees(bot('Reporter'), 'control-after-mute');
    expect(bot('Reporter').seen.some((line) => line.includes('one more ad'))).toBe(false);
  });

  it('a report closed already is answered as such, and nothing more is issued', async () => {
    bot('StaffBot').bot.chat(`/reports punish ${reportId} chat-abuse again`);
    await sees(bot('StaffBot'), `Report ${reportId} is closed already.`);
    const networkId = (await service!.context.stores.networks.findNetwork('e2e'))!;
    expect(await service!.context.stores.tickets.punishmentsOf(networkId, reportId)).toHaveLength(1);
  });
});
