import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Punishment } from '../../src/contract/schemas.js';
import { errorOf, JEB, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

const DAY_MS = 86_400_000;
const LADDER = {
  name: 'Chat conduct',
  warningLifetimeDays: 30,
  steps: [
    { warnings: 5, type: 'ban', duration: 7 * DAY_MS },
    { warnings: 3, type: 'mute', duration: DAY_MS },
  ],
};
const MUTE_REASON = 'Warning ladder "Chat conduct": 3 warnings within 30 days';

describe('warning ladders through the admin API and the creation routes (a real service)', () => {
  let service: TestService;
  beforeEach(async () => {
    service = await startTestService();
  });
  afterEach(async () => service.close());

  const warn = (targetUuid = NOTCH, key?: string) =>
    fetch(`${service.base}/punishments/dynamic`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'network-a-survival-key',
        ...(key ? { 'idempotency-key': `"${key}"` } : {}),
      },
      body: JSON.stringify({ targetUuid, typeOrdinal: 0, status: 'warning', issuerName: 'Mod', reason: 'spam' }),
    });
  const recent = async () =>
    ((await (await service.call('GET', '/punishments/recent?hours=24')).json()) as { punishments: Punishment[] })
      .punishments;
  const bySystem = async () => (await recent()).filter((punishment) => punishment.issuerName === 'System');
  const nextWarning = async (uuid = NOTCH) =>
    (
      (await (await service.call('GET', `/punishments/preview?playerUuid=${uuid}&typeOrdinal=0`)).json()) as {
        nextWarning?: unknown;
      }
    ).nextWarning;

  it('refuses bad ladders naming the field, and stores nothing', async () => {
    const refusals: Array<[unknown, string]> = [
      [
        { ...LADDER, steps: [{ warnings: 0, type: 'mute', duration: DAY_MS }] },
        'steps[0].warnings: must be at least 1',
      ],
      [
        { ...LADDER, steps: [LADDER.steps[1], { warnings: 3, type: 'ban', duration: DAY_MS }] },
        'steps[1].warnings: 3 is already the threshold of steps[0]',
      ],
      [{ ...LADDER, steps: [{ warnings: 3, type: 'jail', duration: DAY_MS }] }, "steps[0].type: unknown type 'jail'"],
      [{ ...LADDER, steps: [{ warnings: 3, type: 'mute' }] }, 'steps[0].duration: is required for a mute'],
      [{ ...LADDER, warningLifetimeDays: 0 }, 'warningLifetimeDays: must be at least 1'],
      [{ ...LADDER, steps: [] }, 'steps: must hold at least one step'],
      [{ ...LADDER, name: ' ' }, 'name: must not be empty'],
      [{ ...LADDER, color: 'red' }, 'color: is not an accepted field'],
    ];
    for (const [body, message] of refusals) {
      const answer = await service.admin('PUT', '/networks/alpha/warning-ladder', body);
      expect(answer.status).toBe(400);
      expect((await errorOf(answer)).message).toContain(message);
    }
    expect((await service.admin('GET', '/networks/alpha/warning-ladder')).status).toBe(404);
    expect((await service.admin('PUT', '/networks/nowhere/warning-ladder', LADDER)).status).toBe(404);
  });

  it('issues the step the crossing warning reaches, once, by System with the ladder named; the preview says what is next', async () => {
    expect(await nextWarning()).toBeUndefined();
    const set = await service.admin('PUT', '/networks/alpha/warning-ladder', LADDER);
    expect(set.status).toBe(200);
    const stored = {
      name: 'Chat conduct',
      warningLifetimeDays: 30,
      steps: [
        { warnings: 3, type: 'mute', duration: DAY_MS },
        { warnings: 5, type: 'ban', duration: 7 * DAY_MS },
      ],
    };
    expect(await set.json()).toMatchObject(stored);
    expect(await (await service.admin('GET', '/networks/alpha/warning-ladder')).json()).toMatchObject(stored);
    expect(await nextWarning()).toEqual({ ladder: 'Chat conduct', warnings: 1, triggers: null });

    for (const _ of [1, 2]) expect((await warn()).status).toBe(200);
    expect(await bySystem()).toEqual([]);
    expect(await nextWarning()).toEqual({
      ladder: 'Chat conduct',
      warnings: 3,
      triggers: { typeOrdinal: 1, title: 'Manual Mute', duration: DAY_MS },
    });

    // The crossing warning, sent twice with one Idempotency-Key: one warning, one mute.
    expect((await warn(NOTCH, 'third')).status).toBe(200);
    expect((await warn(NOTCH, 'third')).status).toBe(200);
    const mutes = await bySystem();
    expect(mutes).toMatchObject([
      { targetUuid: NOTCH, typeOrdinal: 1, duration: DAY_MS, reason: MUTE_REASON, status: 'active' },
    ]);
    // The player is told as of any punishment: a pending notice for their next join or online server.
    const { stores } = service.service.context;
    const alpha = (await stores.networks.findNetwork('alpha'))!;
    expect((await stores.notifications.pendingFor(alpha, NOTCH)).map((notice) => notice.id)).toContain(mutes[0]!.id);
    const audit = await stores.auditLog.newest(alpha, 100);
    expect(audit.find((entry) => entry.action === 'punishment.escalate')).toMatchObject({
      actor: 'System',
      subject: mutes[0]!.id,
    });

    expect((await warn()).status).toBe(200);
    expect(await bySystem()).toHaveLength(1);
    expect((await warn()).status).toBe(200);
    expect((await bySystem()).map((punishment) => punishment.typeOrdinal).sort()).toEqual([1, 2]);
    // Another player climbs their own ladder.
    expect((await warn(JEB)).status).toBe(200);
    expect(await nextWarning(JEB)).toMatchObject({ warnings: 2, triggers: null });
  });

  it('lets warnings age out and pardoned warnings stop counting; a removed ladder issues nothing', async () => {
    await service.admin('PUT', '/networks/alpha/warning-ladder', LADDER);
    expect((await warn()).status).toBe(200);
    expect((await warn()).status).toBe(200);
    service.clock.advance(31 * DAY_MS);
    expect((await warn()).status).toBe(200);
    expect(await nextWarning()).toMatchObject({ warnings: 2, triggers: null });

    expect((await warn()).status).toBe(200);
    const last = (await recent()).find((punishment) => punishment.status === 'warning')!;
    const pardon = await service.call('POST', `/punishments/${last.id}/pardon`, {
      issuerName: 'Mod',
      reason: 'mistake',
    });
    expect(pardon.status).toBe(200);
    expect((await warn()).status).toBe(200);
    expect(await bySystem()).toEqual([]);

    expect((await service.admin('DELETE', '/networks/alpha/warning-ladder')).status).toBe(200);
    expect((await service.admin('DELETE', '/networks/alpha/warning-ladder')).status).toBe(404);
    expect((await warn()).status).toBe(200);
    expect(await bySystem()).toEqual([]);
    expect(await nextWarning()).toBeUndefined();
  });
});
