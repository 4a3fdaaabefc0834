import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineUuid, type TestBot } from './helpers/bots.js';
import { type GameWithBots, startGameWithBots } from './helpers/game-with-bots.js';

const PLAYERS = ['StaffBot', 'Reporter', 'Spammer', 'Helper'];

/**
 * Punish and close in game, with real bots against the reference service: a chat report sent in
 * modl's shape (lines of text) is punished from `/reports punish` by StaffBot (bailiff.reports and
 * bailiff.punish): the reported player is muted at once, the punishment is linked to the report,
 * the reporter is told in game, and the report is closed. Helper (bailiff.reports only) may not.
 */
describe('/reports punish end to end (bailiff start, reference service)', { timeout: 120_000 }, () => {
  let world: GameWithBots;
  let reportId = '';
  const api = () => world.api();
  const bot = (name: string) => world.bot(name);
  const sees = (who: TestBot, text: string) => world.sees(who, text);

  beforeAll(async () => {
    world = await startGameWithBots({
      dirPrefix: 'bailiff-e2e-report-punish-',
      players: PLAYERS,
      joined: ['StaffBot', 'Reporter', 'Spammer', 'Helper'],
      permissions: { StaffBot: ['bailiff.reports', 'bailiff.punish'], Helper: ['bailiff.reports'] },
      bailiffConfig: { ticketUpdates: { pollIntervalMs: 1000 } },
    });
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

  afterAll(() => world?.close());

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
    const networkId = (await world.service.context.stores.networks.findNetwork('e2e'))!;
    const [linked] = await world.service.context.stores.tickets.punishmentsOf(networkId, reportId);
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
    const networkId = (await world.service.context.stores.networks.findNetwork('e2e'))!;
    expect(await world.service.context.stores.tickets.punishmentsOf(networkId, reportId)).toHaveLength(1);
  });
});
