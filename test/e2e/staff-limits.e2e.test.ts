import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { mustJoin, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Boss', 'Junior', 'Target', 'Other', 'Third'];

/**
 * In-game staff limits with real bots: Junior holds the ban and mute commands with
 * `bailiff.limit.ban.1d`, `bailiff.limit.mute.30m` and `bailiff.limit.hourly.2`; Boss is an op (every
 * node, so no limit). The service decides from the permissions the server sends and answers the
 * refusal, which Junior is told.
 */
describe('staff limits in game (bailiff start, reference service)', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-limits-'));
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

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS });
    const server = join(dir, 'server');
    writeTestServerFolder(server);
    appendFileSync(join(server, 'server.yml'), 'ops: [Boss]\n');
    writeFileSync(
      join(server, 'permissions.yml'),
      'players:\n  Junior: [bailiff.ban, bailiff.mute, bailiff.limit.ban.1d, bailiff.limit.mute.30m, bailiff.limit.hourly.2]\n',
    );
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    for (const name of ['Boss', 'Junior', 'Target', 'Other']) bots.set(name, await mustJoin(game.port, name));
  });

  afterAll(async () => {
    for (const each of bots.values()) await each.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a ban and a mute beyond the limits with the limit named, and punishes nobody', async () => {
    bot('Junior').bot.chat('/tempban Target 7d griefing');
    await sees(
      bot('Junior'),
      'refused: the longest ban your in-game permissions may issue is 1d (bailiff.limit.ban.1d); this one is 7d',
    );
    bot('Junior').bot.chat('/ban Target griefing');
    await sees(
      bot('Junior'),
      'refused: the longest ban your in-game permissions may issue is 1d (bailiff.limit.ban.1d); this one is permanent',
    );
    bot('Junior').bot.chat('/tempmute Other 2h spam');
    await sees(
      bot('Junior'),
      'refused: the longest mute your in-game permissions may issue is 30m (bailiff.limit.mute.30m); this one is 2h',
    );
    expect(bot('Target').kickedWith).toBeUndefined();
    expect(await issuedBy('Junior')).toEqual([]);
  });

  it('takes what is within the limits, then refuses the third punishment of the hour', async () => {
    bot('Junior').bot.chat('/tempmute Other 30m spam');
    await sees(bot('Junior'), 'Muted Other for 30m.');
    bot('Junior').bot.chat('/tempban Target 1d griefing');
    await sees(bot('Junior'), 'Banned Target for 1d.');
    await waitFor('Target to be kicked', () => bot('Target').kickedWith);
    const third = await mustJoin(game!.port, 'Third');
    bots.set('Third', third);
    bot('Junior').bot.chat('/tempmute Third 10m spam');
    await sees(
      bot('Junior'),
      'refused: your in-game permissions may issue at most 2 punishment(s) an hour (bailiff.limit.hourly.2); 2 were issued in the last hour',
    );
    expect((await issuedBy('Junior')).map((p) => p.targetName).sort()).toEqual(['Other', 'Target']);
  });

  it('an op holds every limit node, so nothing limits them', async () => {
    bot('Boss').bot.chat('/ban Third evading');
    await sees(bot('Boss'), 'Banned Third permanently.');
    expect((await issuedBy('Boss')).map((p) => p.duration)).toEqual([-1]);
  });
});
