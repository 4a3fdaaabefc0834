import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { type BedrockBot, bedrockOfflineUuid, mustJoinBedrock } from './helpers/bedrock-bots.js';
import {
  BEDROCK_TEST_SETTINGS,
  type RunningGameServer,
  startGameServerProcess,
  writeTestServerFolder,
} from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

// Xbox gamertags may hold spaces.
const PLAYERS = ['StaffBot', 'Reporter', 'Spammer', 'Plain', 'Cool Guy'];

interface ChatLine {
  playerName: string;
  message: string;
  sentAt: string;
}

/**
 * Player reports on a Bedrock server: `bailiff start` with `edition: bedrock` (SerenityJS), the
 * reference service on loopback and bedrock-protocol clients. A chat report carries the reported
 * player's lines, a self-report is refused, the reporter replies with `/ticket`, a gamertag with a
 * space is reported in double quotes, and StaffBot (bailiff.reports and bailiff.reports.notify) is
 * alerted, lists, claims and replies with `/reports`, which the reporter is told in game.
 */
describe('player reports on SerenityJS (Bedrock) end to end', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-bedrock-reports-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let game: RunningGameServer | undefined;
  const bots = new Map<string, BedrockBot>();
  let ticketId = '';

  const api = () => createModerationClient({ baseUrl: service!.url, apiKey: API_KEY });
  const bot = (name: string) => bots.get(name)!;
  const sees = (who: BedrockBot, text: string, from = 0) =>
    waitFor(`${who.name} to see "${text}"`, () => who.seen.slice(from).find((line) => line.includes(text)), 20_000);
  /** Types a command (without `/`) and waits for the answer holding `text` among the lines seen after it. */
  const ask = (who: BedrockBot, line: string, text: string) => {
    const from = who.seen.length;
    who.command(line);
    return sees(who, text, from);
  };

  beforeAll(async () => {
    service = await startTestService({
      dbPath: join(dir, 'service.db'),
      players: PLAYERS,
      uuidOf: bedrockOfflineUuid,
    });
    const server = join(dir, 'server');
    writeTestServerFolder(
      server,
      { reports: { chatLines: 5 }, ticketUpdates: { pollIntervalMs: 1000 } },
      BEDROCK_TEST_SETTINGS,
    );
    writeFileSync(join(server, 'permissions.yml'), 'players:\n  StaffBot: [bailiff.reports, bailiff.reports.notify]\n');
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    for (const name of PLAYERS) bots.set(name, await mustJoinBedrock(game.port, name));
  });

  afterAll(async () => {
    for (const each of bots.values()) await each.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/chatreport opens a chat ticket holding the two lines the reported player said', async () => {
    const [reporter, spammer] = [bot('Reporter'), bot('Spammer')];
    const madeFrom = Date.now();
    spammer.chat('buy cheap gold at my shop');
    await sees(reporter, 'buy cheap gold at my shop');
    // A Bedrock client may send § codes: the server shows them as & text, and the report holds what was shown.
    spammer.chat('§4visit spam.example now');
    await sees(reporter, 'visit spam.example now');

    const sent = await ask(reporter, 'chatreport Spammer advertising', 'your report on Spammer is ticket #');
    ticketId = /ticket #(\S+)\./.exec(sent)![1]!;
    const { ticket } = await api().getTicket({ id: ticketId });
    expect(ticket).toMatchObject({
      type: 'chat',
      creatorUuid: bedrockOfflineUuid('Reporter'),
      creatorName: 'Reporter',
      reportedPlayerUuid: bedrockOfflineUuid('Spammer'),
      reportedPlayerName: 'Spammer',
      description: 'advertising',
    });
    const lines = (ticket as { chatMessages?: ChatLine[] }).chatMessages ?? [];
    expect(lines.map(({ playerName, message }) => ({ playerName, message }))).toEqual([
      { playerName: 'Spammer', message: 'buy cheap gold at my shop' },
      { playerName: 'Spammer', message: '&4visit spam.example now' },
    ]);
    for (const line of lines) {
      expect(Date.parse(line.sentAt)).toBeGreaterThanOrEqual(madeFrom - 1000);
      expect(Date.parse(line.sentAt)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('StaffBot is alerted to the report; a player without bailiff.reports.notify is not', async () => {
    await sees(bot('StaffBot'), `[Report] Reporter reported Spammer: advertising (${ticketId})`);
    // Plain has seen everything said before this control line, and no alert.
    bot('StaffBot').chat('control-after-alert');
    await sees(bot('Plain'), 'control-after-alert');
    expect(bot('Plain').seen.some((line) => line.includes('[Report]'))).toBe(false);
  });

  it('a self-report is refused with the player-facing message, and opens no ticket', async () => {
    const reporter = bot('Reporter');
    await ask(reporter, 'report Reporter he is me', 'You cannot report yourself.');
    await ask(reporter, 'chatreport Reporter me again', 'You cannot report yourself.');
    const { tickets } = await api().getPlayerTickets({ uuid: bedrockOfflineUuid('Reporter') });
    expect(tickets.map((each) => each.id)).toEqual([ticketId]);
  });

  it('the reporter replies with /ticket <id> reply, and the service holds the reply', async () => {
    await ask(
      bot('Reporter'),
      `ticket ${ticketId} reply they are still at it`,
      `Your reply was added to ticket #${ticketId}.`,
    );
    const { ticket } = await api().getTicket({ id: ticketId });
    expect(ticket.replies.map(({ authorName, message }) => ({ authorName, message }))).toEqual([
      { authorName: 'Reporter', message: 'they are still at it' },
    ]);
  });

  it('a gamertag with a space is reported by writing it in double quotes', async () => {
    const plain = bot('Plain');
    const sent = await ask(plain, 'report "cool guy" griefed the spawn', 'your report on Cool Guy is ticket #');
    const id = /ticket #(\S+)\./.exec(sent)![1]!;
    const { ticket } = await api().getTicket({ id });
    expect(ticket).toMatchObject({
      type: 'player',
      creatorName: 'Plain',
      reportedPlayerUuid: bedrockOfflineUuid('Cool Guy'),
      reportedPlayerName: 'Cool Guy',
      description: 'griefed the spawn',
    });
    await sees(bot('StaffBot'), `[Report] Plain reported Cool Guy: griefed the spawn (${id})`);
    // Unquoted, the first word is taken as the name.
    await ask(bot('Spammer'), 'report Cool Guy griefed', 'No player Cool is known');
    await ask(bot('Cool Guy'), 'report "Cool Guy" me', 'You cannot report yourself.');
    await ask(plain, 'report "Cool Guy griefed', 'Usage: /report <player> <reason...>');
  });

  it('StaffBot lists and claims it with /reports; a player without bailiff.reports may not list', async () => {
    const staff = bot('StaffBot');
    await ask(staff, 'reports', 'Open reports (2), page 1/1:');
    await sees(staff, `#${ticketId} Reporter reported Spammer: advertising`);
    await ask(bot('Plain'), 'reports', 'permission');

    await ask(staff, `reports claim ${ticketId}`, `You claimed report ${ticketId}.`);
    const { tickets } = await api().listTickets({ status: 'open' });
    expect(tickets.find((each) => each.id === ticketId)?.assigneeName).toBe('StaffBot');
  });

  it("StaffBot's /reports reply is told to the reporter in game", async () => {
    const from = bot('Reporter').seen.length;
    await ask(
      bot('StaffBot'),
      `reports reply ${ticketId} we are watching Spammer now`,
      `Reply sent to report ${ticketId}; Reporter saw it now.`,
    );
    await sees(bot('Reporter'), `Staff replied to your ticket ${ticketId}: we are watching Spammer now`, from);
    const { ticket } = await api().getTicket({ id: ticketId });
    expect(ticket.replies.map(({ authorName, message }) => [authorName, message])).toEqual([
      ['Reporter', 'they are still at it'],
      ['StaffBot', 'we are watching Spammer now'],
    ]);
  });
});
