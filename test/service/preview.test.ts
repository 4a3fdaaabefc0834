import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewResponse } from '../../src/contract/schemas.js';
import { JEB, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

const DAY_MS = 86_400_000;
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

async function preview(uuid: string, typeOrdinal: number) {
  const response = await t.call('GET', `/punishments/preview?playerUuid=${uuid}&typeOrdinal=${typeOrdinal}`);
  expect(response.status).toBe(200);
  return previewResponse.parse(await response.json());
}

async function punish(uuid: string, typeOrdinal: number, severity: string, extra: Record<string, unknown> = {}) {
  const response = await t.call('POST', '/punishments/dynamic', {
    targetUuid: uuid,
    typeOrdinal,
    severity,
    issuerName: 'm',
    ...extra,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { punishmentId: string }).punishmentId;
}

describe('preview', () => {
  it('gives a first offender the first column of the table', async () => {
    expect(await preview(NOTCH, 6)).toEqual({
      status: 200,
      success: true,
      socialStatus: 'low',
      gameplayStatus: 'low',
      socialPoints: 0,
      gameplayPoints: 0,
      offenseLevel: 'low',
      singleSeverity: { action: 'mute', duration: DAY_MS },
      lenient: { action: 'mute', duration: DAY_MS / 4 },
      regular: { action: 'mute', duration: DAY_MS },
      aggravated: { action: 'mute', duration: 3 * DAY_MS },
    });
  });

  it('answers single-severity types with the same outcome four times', async () => {
    const manualBan = await preview(NOTCH, 2);
    for (const key of ['singleSeverity', 'lenient', 'regular', 'aggravated'] as const) {
      expect(manualBan[key]).toEqual({ action: 'ban', duration: -1 });
    }
    expect((await preview(NOTCH, 1)).singleSeverity).toEqual({ action: 'mute', duration: -1 });
    expect((await preview(NOTCH, 0)).regular).toEqual({ action: 'kick', duration: 0 });
  });

  it('sums social points at the severity issued and raises the tier and offence level', async () => {
    await punish(NOTCH, 7, 'regular', { duration: DAY_MS }); // 3 points
    const medium = await preview(NOTCH, 6);
    expect(medium).toMatchObject({ socialPoints: 3, socialStatus: 'low', offenseLevel: 'low' });
    await punish(NOTCH, 6, 'aggravated', { duration: DAY_MS }); // 2 points -> 5
    expect(await preview(NOTCH, 8)).toMatchObject({
      socialPoints: 5,
      socialStatus: 'medium',
      offenseLevel: 'medium',
      lenient: { action: 'ban', duration: 14 * DAY_MS },
      regular: { action: 'ban', duration: 90 * DAY_MS },
    });
    await punish(NOTCH, 9, 'lenient', { duration: -1 }); // 3 points -> 8
    const habitual = await preview(NOTCH, 8);
    expect(habitual).toMatchObject({ socialPoints: 8, socialStatus: 'habitual', offenseLevel: 'high' });
    expect(habitual.aggravated).toEqual({ action: 'ban', duration: 365 * DAY_MS });
    // A gameplay type uses the gameplay tier, still low.
    expect(await preview(NOTCH, 14)).toMatchObject({ gameplayStatus: 'low', offenseLevel: 'low' });
  });

  it('uses the gameplay tier for gameplay types, up to a permanent aggravated cheating ban', async () => {
    await punish(JEB, 14, 'regular', { duration: 30 * DAY_MS }); // 7 points
    expect(await preview(JEB, 14)).toMatchObject({
      gameplayPoints: 7,
      gameplayStatus: 'medium',
      offenseLevel: 'medium',
    });
    const pardoned = await punish(JEB, 13, 'aggravated', { duration: DAY_MS }); // 5 points, then pardoned
    expect((await preview(JEB, 14)).gameplayStatus).toBe('habitual');
    await t.admin('POST', `/networks/alpha/punishments/${pardoned}/status`, { status: 'pardoned' });
    expect((await preview(JEB, 14)).gameplayPoints).toBe(7);
    await punish(JEB, 12, 'aggravated', { duration: DAY_MS }); // 3 points -> 10
    expect((await preview(JEB, 14)).aggravated).toEqual({ action: 'ban', duration: -1 });
  });

  it('stops counting a temporary punishment 720 days after it expired; permanent ones keep counting', async () => {
    const before = await preview(NOTCH, 6);
    t.clock.advance(31 * DAY_MS + 720 * DAY_MS);
    const after = await preview(NOTCH, 6);
    // Only the permanent lenient Bad Content (3 points) is left.
    expect(before.socialPoints).toBe(8);
    expect(after.socialPoints).toBe(3);
  });
});
