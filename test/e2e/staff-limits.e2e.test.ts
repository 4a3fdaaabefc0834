import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBot } from './helpers/bots.js';
import { type GameWithBots, startGameWithBots } from './helpers/game-with-bots.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Boss', 'Junior', 'Target', 'Other', 'Third'];

/**
 * In-game staff limits with real bots: Junior holds the ban and mute commands with
 * `bailiff.limit.ban.1d`, `bailiff.limit.mute.30m` and `bailiff.limit.hourly.2`; Boss is an op (every
 * node, so no limit). The service decides from the permissions the server sends and answers the
 * refusal, which Junior is told.
 */
describe('staff limits in game (bailiff start, reference service)', { timeout: 90_000 }, () => {
  let world: GameWithBots;
  const bot = (name: string) => world.bot(name);
  const sees = (who: TestBot, text: string) => world.sees(who, text);
  const issuedBy = async (issuer: string) =>
    (await world.api().recentPunishments({ hours: 1 })).punishments.filter((p) => p.issuerName === issuer);

  beforeAll(async () => {
    world = await startGameWithBots({
      dirPrefix: 'bailiff-e2e-limits-',
      players: PLAYERS,
      joined: ['Boss', 'Junior', 'Target', 'Other'],
      ops: ['Boss'],
      permissions: {
        Junior: [
          'bailiff.ban',
          'bailiff.mute',
          'bailiff.limit.ban.1d',
          'bailiff.limit.mute.30m',
          'bailiff.limit.hourly.2',
        ],
      },
      seesTimeoutMs: 10_000,
    });
  });

  afterAll(() => world?.close());

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
    await world.join('Third');
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
