import { afterEach, describe, expect, it } from 'vitest';
import { liftCommand } from '../../plugin/commands/lift.js';
import { moderationCommand } from '../../plugin/commands/moderation.js';
import type { EnforcementContext } from '../../plugin/enforcement/enforcement-context.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import type { Punishment } from '../../src/contract/schemas.js';
import { NOW, STEVE, type TestDeps, testDeps } from './commands/helpers/command-deps.js';
import { unreachable } from './commands/helpers/fake-api.js';
import { fakeSender } from './commands/helpers/fake-sender.js';
import { fakePlayer } from './helpers/fakes.js';

const DAY = 86_400_000;
let deps: TestDeps;
afterEach(() => deps?.db.close());

function context(): EnforcementContext {
  return deps.enforcement;
}

/** The service's copy of `/ban Steve 7d griefing` by Mod, as sync brings it. */
const serviceCopy = (): Punishment => ({
  id: 'svc-1',
  targetUuid: STEVE.uuid,
  targetName: 'Steve',
  issuerName: 'Mod',
  typeOrdinal: 2,
  reason: 'griefing',
  duration: 7 * DAY,
  createdAt: new Date(NOW + 60_000).toISOString(),
  status: 'active',
  started: null,
});

const mod = () => fakeSender({ kind: 'player', name: 'Mod' });
const rowsOf = (operation: string) => deps.outboxRows().filter((row) => row.operation === operation);

describe('a punishment issued while the service was away, when its copy arrives', () => {
  it('carries the local enforcement over: acknowledgements are queued for the service id', async () => {
    const steve = fakePlayer(STEVE.uuid, 'Steve');
    deps = testDeps({ online: [steve], api: { createPunishmentDynamic: unreachable('createPunishmentDynamic') } });
    await moderationCommand(deps, 'ban').execute({ sender: mod(), label: 'ban', args: ['Steve', '7d', 'griefing'] });
    expect(steve.kickedWith).toContain('griefing');
    expect(rowsOf('acknowledgePunishment')).toEqual([]);

    expect(applyPunishment(context(), serviceCopy())).toBe('changed');
    expect(deps.cache.count()).toBe(1);
    expect(deps.cache.get('svc-1')).toMatchObject({ acknowledged: true, notified: true, startedAt: NOW });
    expect(rowsOf('acknowledgePunishment').map((row) => row.payload)).toEqual([
      { punishmentId: 'svc-1', playerUuid: STEVE.uuid, executedAt: new Date(NOW).toISOString(), success: true },
    ]);
    expect(rowsOf('acknowledgeNotifications')).toHaveLength(1);
    expect(applyPunishment(context(), serviceCopy())).toBe('unchanged');
  });

  it('a lift made meanwhile stays lifted and becomes a queued pardon of the service id', async () => {
    deps = testDeps({
      api: {
        createPunishmentDynamic: unreachable('createPunishmentDynamic'),
        pardonPunishment: unreachable('pardonPunishment'),
      },
    });
    await moderationCommand(deps, 'ban').execute({ sender: mod(), label: 'ban', args: ['Steve', '7d', 'griefing'] });
    await liftCommand(deps, 'ban').execute({ sender: mod(), label: 'unban', args: ['Steve', 'appeal'] });
    expect(deps.cache.activeBan(STEVE.uuid, NOW)).toBeUndefined();
    // Nothing to pardon at the service yet: the local id is unknown there.
    expect(deps.client.calls.some((call) => call.method === 'pardonPunishment')).toBe(false);

    applyPunishment(context(), serviceCopy());
    expect(deps.cache.get('svc-1')?.status).toBe('pardoned');
    expect(deps.cache.activeBan(STEVE.uuid, NOW)).toBeUndefined();
    expect(rowsOf('pardonPunishment').map((row) => row.payload)).toEqual([
      { punishmentId: 'svc-1', body: { issuerName: 'Mod', reason: 'appeal' } },
    ]);
  });
});
