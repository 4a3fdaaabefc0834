import { afterEach, describe, expect, it } from 'vitest';
import { banlistCommand } from '../../../plugin/commands/banlist.js';
import { checkCommand } from '../../../plugin/commands/check.js';
import { historyCommand } from '../../../plugin/commands/history.js';
import { liftCommand } from '../../../plugin/commands/lift.js';
import type { Punishment } from '../../../src/contract/schemas.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { fakePlayer } from '../helpers/fakes.js';
import { ALEX, NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError, unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

const HOUR = 3_600_000;
let deps: TestDeps;
afterEach(() => deps?.db.close());

function punishment(overrides: Partial<Punishment>): Punishment {
  return {
    id: 'p-1',
    targetUuid: STEVE.uuid,
    targetName: 'Steve',
    issuerName: 'Admin',
    typeOrdinal: 2,
    reason: 'griefing',
    duration: -1,
    createdAt: new Date(NOW - HOUR).toISOString(),
    status: 'active',
    started: null,
    ...overrides,
  };
}

const mod = () => fakeSender({ kind: 'player', name: 'Mod' });

describe('/unban and /unmute', () => {
  it('pardons at the service, lifts here at once, tells and announces', async () => {
    const steve = fakePlayer(STEVE.uuid, 'Steve');
    deps = testDeps({ online: [steve], api: { pardonPunishment: async () => ({ success: true, message: 'ok' }) } });
    deps.applyCreated(punishment({ id: 'm-1', typeOrdinal: 1, started: new Date(NOW).toISOString() }), true);
    const sender = mod();
    await liftCommand(deps, 'mute').execute({ sender, label: 'unmute', args: ['Steve', 'appeal', 'ok'] });

    expect(deps.client.calls).toEqual([
      { method: 'pardonPunishment', args: [{ punishmentId: 'm-1', body: { issuerName: 'Mod', reason: 'appeal ok' } }] },
    ]);
    expect(deps.cache.activeMute(STEVE.uuid, NOW)).toBeUndefined();
    expect(deps.cache.get('m-1')?.status).toBe('pardoned');
    expect(plain(sender.messages)).toEqual(['Unmuted Steve.']);
    expect(plain(steve.messages).at(-1)).toBe('Your mute (m-1) has been lifted. You can chat again.');
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod unmuted Steve: appeal ok']);
  });

  it('service unreachable: lifted here, the pardon queued in the outbox', async () => {
    deps = testDeps({ api: { pardonPunishment: unreachable('pardonPunishment') } });
    deps.applyCreated(punishment({}), true);
    const sender = mod();
    await liftCommand(deps, 'ban').execute({ sender, label: 'unban', args: ['Steve', '-s'] });
    expect(deps.cache.activeBan(STEVE.uuid, NOW)).toBeUndefined();
    expect(deps.outboxRows()).toEqual([
      {
        operation: 'pardonPunishment',
        payload: { punishmentId: 'p-1', body: { issuerName: 'Mod' } },
        idempotencyKey: 'pardon:p-1',
        orderingKey: 'p-1',
      },
    ]);
    expect(plain(sender.messages)).toEqual([
      'Lifted for Steve here; the moderation service is unreachable, so the pardon is queued and will be sent when it is back.',
    ]);
    expect(deps.staffLines).toEqual([]);
  });

  it('a service without the pardon route (404): says to use the panel and changes nothing', async () => {
    deps = testDeps({
      api: { pardonPunishment: () => Promise.reject(apiError('http', 'pardonPunishment', { status: 404 })) },
    });
    deps.applyCreated(punishment({}), true);
    const sender = mod();
    await liftCommand(deps, 'ban').execute({ sender, label: 'unban', args: ['Steve'] });
    expect(plain(sender.messages)).toEqual([
      'This moderation service does not take pardons from the server: lift it in the moderation panel. Nothing was changed.',
    ]);
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toBe('p-1');
    expect(deps.outboxRows()).toEqual([]);
  });

  it('says so when there is nothing to lift', async () => {
    deps = testDeps();
    const sender = mod();
    await liftCommand(deps, 'ban').execute({ sender, label: 'unban', args: ['Alex'] });
    expect(plain(sender.messages)).toEqual(['Alex has no active ban on this server.']);
    expect(deps.client.calls).toEqual([]);
  });
});

describe('/check, /history, /banlist', () => {
  it('/check shows the running ban and mute with time left, and how many staff notes the player has', async () => {
    const noteCounts: Record<string, number> = { [STEVE.uuid]: 2, [ALEX.uuid]: 0 };
    deps = testDeps({
      api: {
        playerNotes: async ({ uuid }) => ({ success: true, playerUuid: uuid, total: noteCounts[uuid] ?? 0, notes: [] }),
      },
    });
    deps.applyCreated(punishment({}), true);
    deps.applyCreated(
      punishment({
        id: 'm-1',
        typeOrdinal: 1,
        duration: 2 * HOUR,
        reason: 'spam',
        started: new Date(NOW - HOUR).toISOString(),
      }),
      true,
    );
    const sender = mod();
    await checkCommand(deps).execute({ sender, label: 'check', args: ['steve'] });
    expect(plain(sender.messages)).toEqual([
      'Steve:',
      '  Banned by Admin (permanent): griefing (ID p-1)',
      '  Muted by Admin (1h): spam (ID m-1)',
      '  Staff notes: 2 (/notes)',
    ]);
    const clean = mod();
    await checkCommand(deps).execute({ sender: clean, label: 'check', args: ['Alex'] });
    expect(plain(clean.messages)).toEqual([
      'Alex:',
      '  No active ban or mute known to this server.',
      '  Staff notes: 0 (/notes)',
    ]);
  });

  it('/history pages every stored punishment, newest first, each line with its id; past the last page says so', async () => {
    deps = testDeps();
    for (let index = 1; index <= 7; index += 1) {
      deps.applyCreated(
        punishment({
          id: `k-${index}`,
          typeOrdinal: 0,
          duration: 0,
          reason: `r${index}`,
          createdAt: new Date(NOW - (10 - index) * HOUR).toISOString(),
        }),
        true,
      );
    }
    const first = mod();
    await historyCommand(deps).execute({ sender: first, label: 'history', args: ['Steve'] });
    expect(plain(first.messages)[0]).toBe('History of Steve (7), page 1/2:');
    expect(
      plain(first.messages)
        .slice(1, 6)
        .map((line) => line.split(': ').at(-1)),
    ).toEqual(['r7 (ID k-7)', 'r6 (ID k-6)', 'r5 (ID k-5)', 'r4 (ID k-4)', 'r3 (ID k-3)']);
    expect(plain(first.messages).at(-1)).toBe('More: /history Steve 2');
    const second = mod();
    await historyCommand(deps).execute({ sender: second, label: 'history', args: ['Steve', '2'] });
    expect(plain(second.messages)).toHaveLength(3);
    expect(plain(second.messages)[1]).toBe('2026-11-22 02:00 UTC Kick (kick) by Admin [active]: r2 (ID k-2)');
    const third = mod();
    await historyCommand(deps).execute({ sender: third, label: 'history', args: ['Steve', '3'] });
    expect(plain(third.messages)).toEqual(['There is no page 3: the history of Steve has 2.']);
    await expect(
      historyCommand(deps).execute({ sender: mod(), label: 'history', args: ['Steve', 'x'] }),
    ).rejects.toThrow(CommandUsageError);
  });

  it('/banlist lists running bans only', async () => {
    deps = testDeps();
    deps.applyCreated(punishment({}), true);
    deps.applyCreated(punishment({ id: 'p-2', targetUuid: ALEX.uuid, targetName: 'Alex', status: 'pardoned' }), true);
    deps.applyCreated(punishment({ id: 'm-1', typeOrdinal: 1 }), true);
    const sender = mod();
    banlistCommand(deps).execute({ sender, label: 'banlist', args: [] });
    expect(plain(sender.messages)).toEqual(['Active bans (1), page 1/1:', 'Steve by Admin (permanent): griefing']);
    const beyond = mod();
    banlistCommand(deps).execute({ sender: beyond, label: 'banlist', args: ['2'] });
    expect(plain(beyond.messages)).toEqual(['There is no page 2: the list of bans has 1.']);
  });
});
