import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, NETWORK, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Warden', 'Elder', 'Peer', 'Rookie'];

/**
 * Immunity weights in game with real bots: Warden holds the ban command with `bailiff.weight.10`;
 * Elder holds `bailiff.weight.20`, Peer `bailiff.weight.10`, Rookie `bailiff.weight.5`. Each join's
 * login check reports the player's weight; the service refuses Warden a target of equal or higher
 * weight and answers why, which Warden is told.
 */
describe('immunity weights in game (bailiff start, reference service)', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-immunity-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let game: RunningGameServer | undefined;
  const bots = new Map<string, TestBot>();

  const bot = (name: string) => bots.get(name)!;
  const sees = (who: TestBot, text: string) =>
    waitFor(`${who.name} to see "${text}"`, () => who.seen.find((line) => line.includes(text)), 10_000);
  const issuedBy = async (issuer: string) => {
    const client = createModerationClient({ baseUrl: service!.url, apiKey: API_KEY });
    return (await client.recentPunishments({ hours: 1 })).punishments.filter((p) => p.issuerName === issuer);
  };
  const weightOf = async (name: string) => {
    const { stores } = service!.context;
    const network = (await stores.networks.findNetwork(NETWORK))!;
    return stores.immunity.playerWeight(network, offlineUuid(name));
  };

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS });
    const server = join(dir, 'server');
    writeTestServerFolder(server);
    writeFileSync(
      join(server, 'permissions.yml'),
      [
        'players:',
        '  Warden: [bailiff.ban, bailiff.weight.10]',
        '  Elder: [bailiff.weight.20]',
        '  Peer: [bailiff.weight.10]',
        '  Rookie: [bailiff.weight.5]',
        '',
      ].join('\n'),
    );
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    for (const name of PLAYERS) bots.set(name, await mustJoin(game.port, name));
    // The login checks answered (or are still out, under load): their reports are stored.
    for (const [name, weight] of [
      ['Warden', 10],
      ['Elder', 20],
      ['Peer', 10],
      ['Rookie', 5],
    ] as const) {
      await waitFor(`${name}'s weight to be reported`, async () => (await weightOf(name)) === weight || undefined);
    }
  }, 120_000);

  afterAll(async () => {
    for (const each of bots.values()) await each.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses weight 10 a player of weight 20 or 10, naming the weight, and punishes nobody', async () => {
    bot('Warden').bot.chat('/tempban Elder 1d griefing');
    await sees(
      bot('Warden'),
      'refused: Elder has immunity weight 20, and the weight of your in-game permissions (bailiff.weight.10) is 10; only a higher weight may punish them',
    );
    bot('Warden').bot.chat('/tempban Peer 1d griefing');
    await sees(bot('Warden'), 'refused: Peer has immunity weight 10');
    expect(bot('Elder').kickedWith).toBeUndefined();
    expect(bot('Peer').kickedWith).toBeUndefined();
    expect(await issuedBy('Warden')).toEqual([]);
  });

  it('lets weight 10 punish a player of weight 5', async () => {
    bot('Warden').bot.chat('/tempban Rookie 1d griefing');
    await sees(bot('Warden'), 'Banned Rookie for 1d.');
    await waitFor('Rookie to be kicked', () => bot('Rookie').kickedWith);
    expect((await issuedBy('Warden')).map((p) => p.targetName)).toEqual(['Rookie']);
  });
});
