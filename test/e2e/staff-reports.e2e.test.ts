import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineUuid, type TestBot } from './helpers/bots.js';
import { type GameWithBots, startGameWithBots } from './helpers/game-with-bots.js';
import { ADMIN_TOKEN, NETWORK } from './helpers/service.js';

const PLAYERS = ['StaffBot', 'Reporter', 'Cheater', 'Plain'];

/**
 * Staff handle a report in game, with real bots against the reference service: a player report
 * created through the API (as `/report` does) reaches StaffBot (bailiff.reports and
 * bailiff.reports.notify) as an alert; StaffBot lists, claims, replies (the creator is told at once,
 * then at their next join while away), a reply from the admin API reaches the online creator through
 * the poll, and StaffBot closes it, which the API then shows.
 */
describe('staff reports end to end (bailiff start, reference service)', { timeout: 120_000 }, () => {
  let world: GameWithBots;
  let reportId = '';
  const api = () => world.api();
  const bot = (name: string) => world.bot(name);
  const join_ = (name: string) => world.join(name);
  const sees = (who: TestBot, text: string, timeoutMs?: number) => world.sees(who, text, timeoutMs);

  beforeAll(async () => {
    world = await startGameWithBots({
      dirPrefix: 'bailiff-e2e-staff-reports-',
      players: PLAYERS,
      joined: ['StaffBot', 'Reporter', 'Plain'],
      permissions: { StaffBot: ['bailiff.reports', 'bailiff.reports.notify'] },
      bailiffConfig: { ticketUpdates: { pollIntervalMs: 1000 } },
    });
  });

  afterAll(() => world?.close());

  it('a player report created through the API reaches the holder of bailiff.reports.notify as an alert', async () => {
    const created = await api().createTicket({
      creatorUuid: offlineUuid('Reporter'),
      creatorName: 'Reporter',
      type: 'player',
      subject: 'Player report: Cheater',
      description: 'flying over spawn',
      reportedPlayerUuid: offlineUuid('Cheater'),
      reportedPlayerName: 'Cheater',
    });
    reportId = created.ticketId;
    await sees(bot('StaffBot'), `[Report] Reporter reported Cheater: flying over spawn (${reportId})`);
    // Plain has seen everything said before this control line, and no alert.
    bot('StaffBot').bot.chat('control-after-alert');
    await sees(bot('Plain'), 'control-after-alert');
    expect(bot('Plain').seen.some((line) => line.includes('[Report]'))).toBe(false);
  });

  it('/reports lists it, and a player without bailiff.reports may not', async () => {
    bot('StaffBot').bot.chat('/reports');
    await sees(bot('StaffBot'), 'Open reports (1), page 1/1:');
    await sees(bot('StaffBot'), `#${reportId} Reporter reported Cheater: flying over spawn`);
    bot('Plain').bot.chat('/reports');
    await sees(bot('Plain'), 'permission');
  });

  it('/reports claim assigns it; the list shows who holds it', async () => {
    bot('StaffBot').bot.chat(`/reports claim ${reportId}`);
    await sees(bot('StaffBot'), `You claimed report ${reportId}.`);
    const { tickets } = await api().listTickets({ status: 'open' });
    expect(tickets.find((ticket) => ticket.id === reportId)?.assigneeName).toBe('StaffBot');
  });

  it('a staff reply reaches the online creator in game at once', async () => {
    bot('StaffBot').bot.chat(`/reports reply ${reportId} we are watching Cheater now`);
    await sees(bot('Reporter'), `Staff replied to your ticket ${reportId}: we are watching Cheater now`);
    await sees(bot('StaffBot'), `Reply sent to report ${reportId}; Reporter saw it now.`);
  });

  it('a reply written elsewhere (the admin API) reaches the online creator in game through the poll', async () => {
    const response = await fetch(`${world.service.url}/admin/v1/networks/${NETWORK}/tickets/${reportId}/replies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ authorName: 'PanelAdmin', message: 'also noted on the panel' }),
    });
    expect(response.status).toBe(200);
    await sees(bot('Reporter'), `Staff replied to your ticket ${reportId}: also noted on the panel`);
    // That poll came after the in-game reply, which it did not show a second time.
    expect(bot('Reporter').seen.filter((line) => line.includes('we are watching Cheater now'))).toHaveLength(1);
  });

  it('a staff reply to a creator who is away is told at their next join', async () => {
    await bot('Reporter').quit();
    bot('StaffBot').bot.chat(`/reports reply ${reportId} Cheater is banned, thank you`);
    await sees(
      bot('StaffBot'),
      `Reply sent to report ${reportId}; its creator is not online here and is told where they play, or at their next join.`,
    );
    const back = await join_('Reporter');
    await sees(back, `Staff replied to your ticket ${reportId}: Cheater is banned, thank you`);
    // Shown once: the earlier notices are acknowledged, so this join shows only the new one.
    expect(back.seen.filter((line) => line.includes('Staff replied to your ticket'))).toHaveLength(1);
  });

  it('/reports close closes it: the API shows it closed and it leaves the open list', async () => {
    bot('StaffBot').bot.chat(`/reports close ${reportId} Cheater banned`);
    await sees(bot('StaffBot'), `Report ${reportId} closed.`);
    const { ticket } = await api().getTicket({ id: reportId });
    expect(ticket.status).toBe('Closed');
    expect(ticket.replies.map((reply) => [reply.authorName, reply.message])).toEqual([
      ['StaffBot', 'we are watching Cheater now'],
      ['PanelAdmin', 'also noted on the panel'],
      ['StaffBot', 'Cheater is banned, thank you'],
    ]);
    const open = await api().listTickets({ status: 'open' });
    expect(open.tickets.map((each) => each.id)).not.toContain(reportId);
  });

  it('a report made here with /report reaches the staff alert at once', async () => {
    bot('Reporter').bot.chat('/report Cheater speed hacking near the farms');
    const thanks = await sees(bot('Reporter'), 'your report on Cheater is ticket #');
    const id = /ticket #(\S+)\./.exec(thanks)![1]!;
    await sees(bot('StaffBot'), `[Report] Reporter reported Cheater: speed hacking near the farms (${id})`);
  });
});
