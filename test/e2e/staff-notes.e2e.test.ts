import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineUuid, type TestBot } from './helpers/bots.js';
import { type GameWithBots, startGameWithBots } from './helpers/game-with-bots.js';
import { NETWORK } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['NoteMod', 'Suspect', 'Plain'];

/**
 * Staff notes in game with real bots against the reference service: NoteMod (bailiff.note) adds
 * notes on Suspect with /note, reads them with /notes and sees their count in /check; the notes are
 * stored by the service with NoteMod as their in-game author; Suspect, who is online, is never told,
 * and a player without bailiff.note may neither add nor read them.
 */
describe('staff notes end to end (bailiff start, reference service)', { timeout: 120_000 }, () => {
  let world: GameWithBots;
  const bot = (name: string) => world.bot(name);
  const sees = (who: TestBot, text: string, timeoutMs?: number) => world.sees(who, text, timeoutMs);
  const networkId = async () => (await world.service.context.stores.networks.findNetwork(NETWORK))!;

  beforeAll(async () => {
    world = await startGameWithBots({
      dirPrefix: 'bailiff-e2e-staff-notes-',
      players: PLAYERS,
      joined: PLAYERS,
      permissions: { NoteMod: ['bailiff.note', 'bailiff.check'] },
    });
  });

  afterAll(() => world?.close());

  it('/note stores a note with its in-game author at the service, and the player is never told', async () => {
    bot('NoteMod').bot.chat('/note Suspect asked everyone for their password');
    await sees(bot('NoteMod'), 'Note added to Suspect (1 note(s) in all).');
    bot('NoteMod').bot.chat('/note Suspect second warning in chat');
    await sees(bot('NoteMod'), 'Note added to Suspect (2 note(s) in all).');
    const notes = await world.service.context.stores.staffNotes.of(
      await networkId(),
      'player',
      offlineUuid('Suspect'),
      10,
    );
    expect(notes.map((note) => [note.authorName, note.authorVia, note.text])).toEqual([
      ['NoteMod', 'game', 'second warning in chat'],
      ['NoteMod', 'game', 'asked everyone for their password'],
    ]);
    const audit = await world.service.context.stores.auditLog.newest(await networkId(), 5);
    expect(audit.filter((entry) => entry.action === 'note.add').map((entry) => [entry.actor, entry.via])).toEqual([
      ['NoteMod', 'api'],
      ['NoteMod', 'api'],
    ]);
    // Suspect has seen everything said before this control line, and no note.
    bot('NoteMod').bot.chat('control-after-notes');
    await sees(bot('Suspect'), 'control-after-notes');
    expect(bot('Suspect').seen.some((line) => /password|warning in chat|Note added|Staff notes/.test(line))).toBe(
      false,
    );
  });

  it('/notes lists them newest first with their author; /check shows how many', async () => {
    bot('NoteMod').bot.chat('/notes Suspect');
    await sees(bot('NoteMod'), 'Staff notes on Suspect (2; newest 2):');
    await sees(bot('NoteMod'), 'NoteMod: asked everyone for their password');
    const lines = bot('NoteMod').seen.filter((line) => line.includes('NoteMod: '));
    expect(lines[0]).toContain('second warning in chat');
    bot('NoteMod').bot.chat('/check Suspect');
    await sees(bot('NoteMod'), 'Staff notes: 2 (/notes)');
  });

  it('a player without bailiff.note may neither add nor read notes', async () => {
    bot('Plain').bot.chat('/note Suspect I am not staff');
    await sees(bot('Plain'), 'permission');
    bot('Plain').bot.chat('/notes Suspect');
    await waitFor(
      'a second refusal',
      () => bot('Plain').seen.filter((line) => line.includes('permission')).length >= 2,
    );
    expect(bot('Plain').seen.some((line) => line.includes('password'))).toBe(false);
    expect(
      await world.service.context.stores.staffNotes.count(await networkId(), 'player', offlineUuid('Suspect')),
    ).toBe(2);
  });
});
