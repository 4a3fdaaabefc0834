import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../src/service/index.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { HOSTS, type PlayerBot } from './helpers/hosts.js';
import { API_KEY, NETWORK } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/**
 * Every player's language with the real pieces on each host: the reference service, a game
 * server (`bailiff start` child process) and real clients reporting their game language (a Java
 * client in its client settings, a Bedrock client in its login). A German, a French and an
 * English player are muted and banned by the console: each reads the notice, the refused chat
 * line, the kick screen and the ban screen at their next login in their own language. On Java
 * the client says its language only after login: the ban screen at login is in the language the
 * player last used there.
 */
describe.each(HOSTS)('every player reads their own language on $name', { timeout: 120_000 }, (host) => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-languages-'));
  let service: RunningService;
  let game: RunningGameServer;
  const bots: PlayerBot[] = [];
  const players = [
    {
      name: 'Kurt',
      locale: 'de_DE',
      muted: 'Du wurdest von CONSOLE stummgeschaltet: spamming (verbleibend: 10 Min.',
      blocked: 'Du bist stummgeschaltet: spamming (verbleibend: ',
      screen: 'Du bist von diesem Server gebannt.',
      reason: 'Grund: griefing',
    },
    {
      name: 'Amelie',
      locale: 'fr_FR',
      muted: 'Tu as été réduit au silence par CONSOLE : spamming. Expire : 10 min.',
      blocked: 'Tu es réduit au silence : spamming. Expire : ',
      screen: 'Tu es banni de ce serveur.',
      reason: 'Raison : griefing',
    },
    {
      name: 'Emma',
      locale: 'en_US',
      muted: 'You have been muted by CONSOLE: spamming. Expires: 10m.',
      blocked: 'You are muted: spamming. Expires: ',
      screen: 'You are banned from this server.',
      reason: 'Reason: griefing',
    },
  ] as const;

  const joinAs = async (name: string, locale: string) => {
    const result = await host.join(game.port, name, undefined, { locale });
    if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
    bots.push(result.bot);
    return result.bot;
  };
  const saw = (bot: PlayerBot, text: string) => bot.seen.some((line) => line.includes(text));

  beforeAll(async () => {
    service = await startService({
      host: '127.0.0.1',
      port: 0,
      dbPath: join(dir, 'service.db'),
      seed: {
        networks: [{ name: NETWORK, servers: [{ name: 'lobby', apiKey: API_KEY }], players: [], punishments: [] }],
      },
    });
    writeTestServerFolder(join(dir, 'lobby'), {}, host.serverSettings);
    game = await startGameServerProcess(join(dir, 'lobby'), { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells each muted player, and refuses their chat, in their language', async () => {
    const joined = await Promise.all(players.map((player) => joinAs(player.name, player.locale)));
    for (const player of players) game.console(`mute ${player.name} 10m spamming`);
    for (const [index, player] of players.entries()) {
      const bot = joined[index]!;
      await waitFor(`${player.name}'s mute notice`, () => saw(bot, player.muted));
      bot.chat('hello everyone');
      await waitFor(`${player.name}'s refused chat line`, () => saw(bot, player.blocked));
    }
    // The console reads the network's default language.
    await waitFor('the staff announcement', () => game.output().includes('CONSOLE muted Kurt for 10m: spamming'));
  });

  it('kicks each banned player with a ban screen in their language, and refuses the next login with it', async () => {
    for (const player of players) game.console(`ban ${player.name} 1d griefing`);
    for (const player of players) {
      const bot = bots.find((candidate) => candidate.name === player.name)!;
      await waitFor(`${player.name}'s kick screen`, () => bot.kickedWith !== undefined);
      expect(bot.kickedWith).toContain(player.screen);
      expect(bot.kickedWith).toContain(player.reason);
    }
    for (const player of players) {
      const again = await host.join(game.port, player.name, undefined, { locale: player.locale });
      expect(again.joined).toBe(false);
      const reason = again.joined ? '' : again.reason;
      expect(reason).toContain(player.screen);
      expect(reason).toContain(player.reason);
    }
  });
});
