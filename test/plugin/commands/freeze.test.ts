import { afterEach, describe, expect, it } from 'vitest';
import { freezeCommand } from '../../../plugin/commands/freeze.js';
import { frozenCommand } from '../../../plugin/commands/frozen.js';
import { unfreezeCommand } from '../../../plugin/commands/unfreeze.js';
import type { FrozenPlayer } from '../../../src/contract/freeze-schemas.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

const atService = (uuid: string, name: string, reason: string): FrozenPlayer => ({
  playerUuid: uuid,
  playerName: name,
  reason,
  issuerName: 'CONSOLE',
  serverName: 'lobby',
  frozenAt: new Date(NOW).toISOString(),
});

async function run(handler: ReturnType<typeof freezeCommand>, label: string, args: string[], sender = fakeSender()) {
  await handler.execute({ sender, label, args });
  return plain(sender.messages);
}

describe('/freeze, /unfreeze and /frozen', () => {
  it('freezes a known player network-wide, lists them, and unfreezes them', async () => {
    deps = testDeps({
      api: {
        freezePlayer: async ({ uuid, body }) => ({
          success: true,
          outcome: 'frozen',
          freeze: atService(uuid, body.playerName, body.reason ?? ''),
        }),
        unfreezePlayer: async () => ({ success: true, outcome: 'unfrozen' }),
      },
    });
    expect(await run(freezeCommand(deps), 'freeze', ['Steve', 'checking', 'for', 'x-ray'])).toEqual([
      'Froze Steve on every server of the network: checking for x-ray',
    ]);
    expect(await run(frozenCommand(deps), 'frozen', [])).toEqual([
      'Frozen players (1), page 1/1:',
      'Steve by CONSOLE, 0s ago: checking for x-ray',
    ]);
    expect(await run(freezeCommand(deps), 'freeze', ['Steve'])).toEqual([
      'Steve is already frozen by CONSOLE: checking for x-ray',
    ]);
    expect(await run(unfreezeCommand(deps), 'unfreeze', ['steve'])).toEqual([
      'Unfroze Steve on every server of the network.',
    ]);
    expect(await run(frozenCommand(deps), 'frozen', [])).toEqual(['Nobody is frozen.']);
  });

  it('says when a freeze holds on this server only', async () => {
    deps = testDeps({ api: { freezePlayer: unreachable('freezePlayer') } });
    expect(await run(freezeCommand(deps), 'freeze', [STEVE.uuid])).toEqual([
      'Froze Steve on this server only (the moderation service could not be reached): no reason given',
    ]);
    expect((await run(frozenCommand(deps), 'frozen', []))[1]).toBe(
      'Steve by CONSOLE, 0s ago (this server only): no reason given',
    );
  });

  it('refuses an exempt player, a reason too long, and a missing player argument', async () => {
    deps = testDeps({ exempt: ['Steve'] });
    expect(await run(freezeCommand(deps), 'freeze', ['Steve'])).toEqual([
      'Steve cannot be punished: they hold bailiff.exempt.',
    ]);
    expect(await run(freezeCommand(deps), 'freeze', ['Alex', 'x'.repeat(257)])).toEqual([
      'The reason is too long: at most 256 characters.',
    ]);
    await expect(run(freezeCommand(deps), 'freeze', [])).rejects.toBeInstanceOf(CommandUsageError);
    expect(deps.client.calls).toEqual([]);
  });
});
