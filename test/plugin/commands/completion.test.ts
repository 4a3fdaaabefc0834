import { afterEach, describe, expect, it } from 'vitest';
import { buildCommands } from '../../../plugin/commands/index.js';
import type { CommandHandler } from '../../../src/runtime/plugin-api.js';
import { type TestDeps, testDeps } from './helpers/command-deps.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

function complete(handler: CommandHandler | undefined, args: string[], permissions?: string[]): string[] {
  return handler?.tabComplete?.({ sender: fakeSender({ kind: 'player', permissions }), label: 'x', args }) ?? [];
}

describe('tab completion', () => {
  it('offers online players, then enabled type slugs once the catalogue is known, then severities', async () => {
    deps = testDeps();
    const commands = buildCommands(deps, () => ['Steve', 'Alex', 'sam']);

    expect(complete(commands.punish, ['s'])).toEqual(['Steve', 'sam']);
    // The first Tab on a type starts a read of the catalogue; the next one uses it.
    expect(complete(commands.punish, ['Steve', 'c'])).toEqual([]);
    // Let the started read settle (the fake answers at once): a flush, not a wait on time.
    await new Promise((resolve) => setImmediate(resolve));
    expect(complete(commands.punish, ['Steve', 'c'])).toEqual(['chat-abuse', 'cheating']);
    expect(complete(commands.preview, ['Steve', ''])).toEqual(['kick', 'manual-ban', 'chat-abuse', 'cheating']);
    expect(complete(commands.punish, ['Steve', 'cheating', 'AG'])).toEqual(['aggravated']);
    expect(complete(commands.punish, ['Steve', 'cheating', 'regular', 'x'])).toEqual([]);
  });

  it('offers players, then durations where one is read, then -s (and -r for bans and mutes) to the moderation commands', () => {
    deps = testDeps();
    const commands = buildCommands(deps, () => ['Steve', 'Alex']);
    for (const name of ['ban', 'tempban', 'mute', 'tempmute', 'kick', 'warn', 'unban', 'unmute', 'check', 'history']) {
      expect(complete(commands[name], ['st'])).toEqual(['Steve']);
    }
    expect(complete(commands.ban, ['Steve', '1'])).toEqual(['1h', '12h', '1d', '1mo']);
    expect(complete(commands.tempmute, ['Steve', ''])).toEqual(['30m', '1h', '12h', '1d', '7d', '2w', '1mo', 'perm']);
    expect(complete(commands.kick, ['Steve', '1'])).toEqual([]);
    expect(complete(commands.warn, ['Steve', '-'])).toEqual(['-s']);
    expect(complete(commands.ban, ['Steve', '7d', '-'])).toEqual(['-s', '-ab', '-r']);
    expect(complete(commands.mute, ['Steve', '7d', '-'])).toEqual(['-s', '-r']);
  });

  it("offers other players' names to /tickets only with bailiff.tickets.others", () => {
    deps = testDeps();
    const commands = buildCommands(deps, () => ['Steve', 'Alex']);
    expect(complete(commands.tickets, ['a'], ['bailiff.tickets.others'])).toEqual(['Alex']);
    expect(complete(commands.tickets, ['a'], ['bailiff.tickets'])).toEqual([]);
  });
});
