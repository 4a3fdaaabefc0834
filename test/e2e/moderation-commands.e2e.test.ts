import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinBot, offlineUuid, type TestBot } from './helpers/bots.js';
import { type GameWithBots, startGameWithBots } from './helpers/game-with-bots.js';
import { adminApi } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = [
  'StaffBot',
  'Watcher',
  'Plain',
  'Target',
  'Chatty',
  'Kicked',
  'Warned',
  'Temp',
  'Shielded',
  'Bob',
  'Twice',
];

/**
 * The standard moderation commands with real bots against the reference service (stream on):
 * StaffBot is an op, Watcher holds only bailiff.notify, Plain holds nothing, Shielded holds
 * bailiff.exempt. One game server for every check, in order.
 */
describe('moderation commands end to end (bailiff start, reference service)', { timeout: 90_000 }, () => {
  let world: GameWithBots;
  const admin = adminApi(() => world.service.url);
  const bot = (name: string) => world.bot(name);
  const join_ = (name: string) => world.join(name);
  const sees = (who: TestBot, text: string, timeoutMs?: number) => world.sees(who, text, timeoutMs);
  const consoleSays = (text: string) =>
    waitFor(`the console to print "${text}"`, () => world.game.output().includes(text) || undefined);
  /** The id at the end of "... Punishment ID: <id>" told to `who` after `index`. */
  const idToldTo = async (who: TestBot, text: string) => {
    const line = await sees(who, text);
    return /Punishment ID: (\S+)$/.exec(line)![1]!;
  };
  const servicePunishments = async () => (await world.api().recentPunishments({ hours: 1 })).punishments;

  beforeAll(async () => {
    world = await startGameWithBots({
      dirPrefix: 'bailiff-e2e-moderation-',
      players: PLAYERS,
      joined: ['StaffBot', 'Watcher', 'Plain'],
      ops: ['StaffBot'],
      permissions: { Watcher: ['bailiff.notify'], Shielded: ['bailiff.exempt'] },
      seesTimeoutMs: 10_000,
    });
  });

  afterAll(() => world?.close());

  it('/ban without a duration: kicked at once, created at the service, announced to bailiff.notify only', async () => {
    const target = await join_('Target');
    bot('StaffBot').bot.chat('/ban Target griefing the spawn');
    const id = await idToldTo(bot('StaffBot'), 'Banned Target permanently. Punishment ID:');
    const reason = await waitFor('Target to be kicked', () => target.kickedWith);
    expect(reason).toContain('You are banned from this server.');
    expect(reason).toContain('griefing the spawn');

    await sees(bot('Watcher'), '[Bailiff] StaffBot banned Target permanently: griefing the spawn');
    await consoleSays('StaffBot banned Target permanently: griefing the spawn');
    const stored = (await servicePunishments()).find((punishment) => punishment.id === id);
    expect(stored).toMatchObject({ typeOrdinal: 2, duration: -1, issuerName: 'StaffBot', status: 'active' });
    const refused = await joinBot(world.game.port, 'Target');
    expect(refused.joined).toBe(false);
  });

  it('an op uses /kick without a permission error; the kicked player sees the reason; a plain player sees no broadcast', async () => {
    const kicked = await join_('Kicked');
    bot('StaffBot').bot.chat('/kick Kicked calm down');
    const reason = await waitFor('Kicked to be kicked', () => kicked.kickedWith);
    expect(reason).toContain('calm down');
    await sees(bot('Watcher'), '[Bailiff] StaffBot kicked Kicked: calm down');
    expect(bot('StaffBot').seen.some((line) => line.includes('do not have permission'))).toBe(false);
    // Plain has seen everything said before this control line, and none of the broadcasts.
    bot('Watcher').bot.chat('control-after-kick');
    await sees(bot('Plain'), 'control-after-kick');
    expect(bot('Plain').seen.some((line) => line.includes('[Bailiff]'))).toBe(false);
  });

  it('a silent tempmute (-s) blocks chat and /msg and is not announced; /unmute lifts it at once and reaches the service', async () => {
    const chatty = await join_('Chatty');
    bot('StaffBot').bot.chat('/tempmute Chatty 1h -s spamming');
    const id = await idToldTo(bot('StaffBot'), 'Muted Chatty for 1h. Punishment ID:');
    await sees(chatty, 'You have been muted by StaffBot');

    chatty.bot.chat('hello from a muted player');
    await sees(chatty, 'You are muted: spamming');
    chatty.bot.chat('/msg Plain whispered while muted');
    await sees(chatty, 'You cannot use /msg while muted');
    // A later, loud punishment reaches Watcher: the silent one would have come first.
    bot('StaffBot').bot.chat('/warn Plain loud one');
    await sees(bot('Watcher'), '[Bailiff] StaffBot warned Plain: loud one');
    bot('Watcher').bot.chat('control-after-mute');
    await sees(bot('Plain'), 'control-after-mute');
    expect(bot('Plain').seen.some((line) => line.includes('muted player') || line.includes('whispered'))).toBe(false);
    expect(bot('Watcher').seen.some((line) => line.includes('muted Chatty'))).toBe(false);

    bot('StaffBot').bot.chat('/unmute Chatty appeal accepted');
    await sees(bot('StaffBot'), 'Unmuted Chatty.');
    await sees(chatty, 'has been lifted');
    chatty.bot.chat('free to talk again');
    await sees(bot('Plain'), 'free to talk again');
    const record = (await admin.punishment(id)) as Awaited<ReturnType<typeof admin.punishment>> & {
      pardon: { issuerName: string; reason: string } | null;
    };
    expect(record.punishment.status).toBe('pardoned');
    expect(record.pardon).toMatchObject({ issuerName: 'StaffBot', reason: 'appeal accepted' });
  });

  it('/warn is shown to the player, who stays; /history pages it newest first', async () => {
    const warned = await join_('Warned');
    for (let index = 1; index <= 6; index += 1) {
      // One after another, so the service creates them in this order.
      world.game.console(`warn Warned reason-${index}`);
      await waitFor(
        `warning ${index}`,
        () => world.game.output().split('Warned Warned.').length - 1 >= index || undefined,
      );
    }
    await sees(warned, 'You received a Warning from CONSOLE: reason-6');
    expect(warned.kickedWith).toBeUndefined();

    bot('StaffBot').bot.chat('/history Warned');
    await sees(bot('StaffBot'), 'History of Warned (6), page 1/2:');
    await sees(bot('StaffBot'), 'More: /history Warned 2');
    bot('StaffBot').bot.chat('/history Warned 2');
    await sees(bot('StaffBot'), 'History of Warned (6), page 2/2:');
    const lines = bot('StaffBot').seen.filter((line) => /Warning \(warn\) by CONSOLE/.test(line));
    expect(lines.map((line) => /: (reason-\d) \(ID \S+\)$/.exec(line)?.[1])).toEqual([
      'reason-6',
      'reason-5',
      'reason-4',
      'reason-3',
      'reason-2',
      'reason-1',
    ]);
  });

  it('/check and /banlist read what this server knows; /unban lets the player back in and reaches the service', async () => {
    bot('StaffBot').bot.chat('/check Target');
    await sees(bot('StaffBot'), 'Banned by StaffBot (permanent): griefing the spawn');
    bot('StaffBot').bot.chat('/banlist');
    await sees(bot('StaffBot'), 'Active bans (1), page 1/1:');
    await sees(bot('StaffBot'), 'Target by StaffBot (permanent): griefing the spawn');

    const [ban] = (await servicePunishments()).filter((punishment) => punishment.targetName === 'Target');
    bot('StaffBot').bot.chat('/pardon Target');
    await sees(bot('StaffBot'), 'Unbanned Target.');
    await sees(bot('Watcher'), '[Bailiff] StaffBot unbanned Target: no reason given');
    expect((await admin.punishment(ban!.id)).punishment.status).toBe('pardoned');
    await join_('Target');
  });

  it('/tempban runs out: refused while it runs, let in afterwards', async () => {
    const temp = await join_('Temp');
    bot('StaffBot').bot.chat('/tempban Temp 3s cooling off');
    await waitFor('Temp to be kicked', () => temp.kickedWith);
    const refused = await joinBot(world.game.port, 'Temp');
    expect(refused.joined).toBe(false);
    const back = await waitFor(
      'Temp to be let back in',
      async () => {
        const attempt = await joinBot(world.game.port, 'Temp');
        return attempt.joined ? attempt.bot : undefined;
      },
      20_000,
      500,
    );
    world.track(back);
  });

  it('a second ban is refused naming the running one; -r pardons it and bans anew; the screen shows the new one', async () => {
    world.game.console('tempban Twice 1h first');
    await consoleSays('Banned Twice for 1h. Punishment ID:');
    const first = /Banned Twice for 1h\. Punishment ID: (\S+)/.exec(world.game.output())![1]!;
    world.game.console('ban Twice 2d again');
    await consoleSays(`Twice is already banned (ID ${first}, time left: 1h). Add -r to replace that ban.`);
    world.game.console('ban Twice 2d -r again');
    await consoleSays(`The running ban of Twice (${first}) is pardoned to replace it.`);
    await consoleSays('Banned Twice for 2d. Punishment ID:');
    const refused = await joinBot(world.game.port, 'Twice');
    if (refused.joined) throw new Error('Twice was let in while banned');
    expect(refused.reason).toContain('Reason: again');
    expect(refused.reason).toContain('Expires: 2d');
    expect((await admin.punishment(first)).punishment.status).toBe('pardoned');
  });

  it('an exempt player is protected from in-game commands', async () => {
    await join_('Shielded');
    bot('StaffBot').bot.chat('/ban Shielded no reason');
    await sees(bot('StaffBot'), 'Shielded cannot be punished: they hold bailiff.exempt.');
    expect((await servicePunishments()).some((punishment) => punishment.targetName === 'Shielded')).toBe(false);
  });

  // Depends on the runtime letting a plugin take over flying-squid's console `ban` (issue 11, item 5).
  it('console `ban` creates the punishment at the service, and nothing in flying-squid own list', async () => {
    const bob = await join_('Bob');
    world.game.console('ban Bob console test');
    expect(await waitFor('Bob to be kicked', () => bob.kickedWith)).toContain('You are banned from this server.');
    await consoleSays('Banned Bob permanently. Punishment ID:');
    const stored = (await servicePunishments()).find((punishment) => punishment.targetUuid === offlineUuid('Bob'));
    expect(stored).toMatchObject({ issuerName: 'CONSOLE', typeOrdinal: 2, reason: 'console test', status: 'active' });
    // flying-squid's own ban answers "Bob was banned" on the console: never printed.
    expect(world.game.output()).not.toContain('Bob was banned');
    // flying-squid's own ban-ip and pardon-ip are Bailiff's IP bans, at the service.
    world.game.console('ban-ip 10.0.0.1');
    await consoleSays('IP-banned 10.0.0.1 permanently. Punishment ID:');
    world.game.console('pardon-ip 10.0.0.1');
    await consoleSays('Lifted 1 IP ban(s) of 10.0.0.1.');

    world.game.console('banlist');
    await consoleSays('Bob by CONSOLE (permanent): console test');
    world.game.console('pardon Bob');
    await consoleSays('Unbanned Bob.');
    expect((await admin.punishment(stored!.id)).punishment.status).toBe('pardoned');
    world.game.console('kick Warned from the console');
    // Bailiff's kick screen, not flying-squid's bare reason.
    const screen = await waitFor('Warned to be kicked', () => bot('Warned').kickedWith);
    expect(screen).toContain('You were kicked from this server.');
    expect(screen).toContain('from the console');
  });

  it('a punishment created elsewhere (the panel) is announced when it syncs', async () => {
    const client = world.api();
    await client.createPunishmentDynamic({
      targetUuid: offlineUuid('Plain'),
      typeOrdinal: 1,
      issuerName: 'Panel',
      duration: 3_600_000,
      reason: 'from the panel',
    });
    await sees(bot('Watcher'), '[Bailiff] Panel muted Plain for 1h: from the panel');
    await sees(bot('Plain'), 'You have been muted by Panel');
  });
});
