import { describe, expect, it } from 'vitest';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { pollRecent } from '../../plugin/sync/poller.js';
import { createSyncStatus } from '../../plugin/sync/sync-status.js';
import { ApiError } from '../../src/api/errors.js';
import type { RecentResponse } from '../../src/contract/schemas.js';
import { ALICE, BOB, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

function pollWith(h: ReturnType<typeof enforcementHarness>, answer: () => Promise<RecentResponse>) {
  const status = createSyncStatus('disabled');
  const calls: unknown[] = [];
  const run = () =>
    pollRecent({
      client: {
        recentPunishments: (query) => {
          calls.push(query);
          return answer();
        },
      },
      recentHours: () => 48,
      apply: (punishment) => applyPunishment(h.context, punishment),
      status,
      clock: h.clock,
      logger: h.logger,
    });
  return { run, status, calls };
}

describe('polling recent', () => {
  it('applies new punishments oldest first so the newest state of a player wins', async () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    // Newest first, as the service answers.
    const punishments = [
      servicePunishment({ id: 'b', typeOrdinal: 6, createdAt: '2026-01-01T00:00:02.000Z' }),
      servicePunishment({ id: 'a', typeOrdinal: 6, targetUuid: BOB, createdAt: '2026-01-01T00:00:01.000Z' }),
    ];
    const { run, status, calls } = pollWith(h, async () => ({ punishments }));
    expect(await run()).toEqual({ applied: 2, ok: true });
    expect(calls).toEqual([{ hours: 48 }]);
    expect(h.cache.count()).toBe(2);
    expect(status).toMatchObject({ serviceReachable: true, lastSyncAt: h.clock.now() });

    expect(await run()).toEqual({ applied: 0, ok: true });
  });

  it('a change of status in a later poll is applied (pardon lifts the ban)', async () => {
    const h = enforcementHarness();
    let status = 'active';
    const { run } = pollWith(h, async () => ({ punishments: [servicePunishment({ status })] }));
    await run();
    expect(h.cache.activeBan(ALICE, h.clock.now())).toBeDefined();
    status = 'pardoned';
    expect((await run()).applied).toBe(1);
    expect(h.cache.activeBan(ALICE, h.clock.now())).toBeUndefined();
  });

  it('a malformed answer is logged without the key and applies nothing', async () => {
    const h = enforcementHarness();
    const malformed = new ApiError({
      kind: 'invalid_response',
      endpoint: 'recentPunishments',
      message: 'recentPunishments: invalid response: punishments.0.id: expected string',
    });
    const { run, status } = pollWith(h, () => Promise.reject(malformed));
    expect(await run()).toEqual({ applied: 0, ok: false });
    expect(h.cache.count()).toBe(0);
    expect(status.lastSyncAt).toBeUndefined();
    expect(status.serviceReachable).toBe(true);
    expect(h.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'recent answered a malformed response: nothing applied' }),
    );
  });

  it('a network failure marks the service unreachable until a poll succeeds', async () => {
    const h = enforcementHarness();
    let fail = true;
    const { run, status } = pollWith(h, () =>
      fail
        ? Promise.reject(new ApiError({ kind: 'network', endpoint: 'recentPunishments', message: 'ECONNREFUSED' }))
        : Promise.resolve({ punishments: [] }),
    );
    await run();
    expect(status.serviceReachable).toBe(false);
    fail = false;
    await run();
    expect(status.serviceReachable).toBe(true);
  });

  it('one punishment that cannot be applied does not stop the others', async () => {
    const h = enforcementHarness();
    const punishments = [servicePunishment({ id: 'good' }), servicePunishment({ id: 'bad' })];
    const status = createSyncStatus('disabled');
    const result = await pollRecent({
      client: { recentPunishments: async () => ({ punishments }) },
      recentHours: () => 1,
      apply: (punishment) => {
        if (punishment.id === 'bad') throw new Error('boom');
        return applyPunishment(h.context, punishment);
      },
      status,
      clock: h.clock,
      logger: h.logger,
    });
    expect(result.applied).toBe(1);
    expect(h.cache.get('good')).toBeDefined();
  });
});
