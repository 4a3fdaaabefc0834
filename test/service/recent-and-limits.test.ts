import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentResponse, typesResponse } from '../../src/contract/schemas.js';
import { errorOf, JEB, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

const HOUR_MS = 3_600_000;
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

async function recent(query = '', apiKey?: string) {
  const response = await t.call('GET', `/punishments/recent${query}`, undefined, apiKey);
  expect(response.status).toBe(200);
  return recentResponse.parse(await response.json()).punishments;
}

describe('recent and the limits table', () => {
  it('lists at most 100, newest first, within the default 48 hours and the hours asked for', async () => {
    // One punishment 72 h ago, then 105 spaced a minute apart up to now.
    await t.call('POST', '/punishments/create', { targetUuid: JEB, type_ordinal: 2, reason: 'old' });
    t.clock.advance(72 * HOUR_MS - 105 * 60_000);
    for (let i = 0; i < 105; i += 1) {
      t.clock.advance(60_000);
      const response = await t.call('POST', '/punishments/create', {
        targetUuid: NOTCH,
        type_ordinal: 6,
        reason: `r${i}`,
      });
      expect(response.status).toBe(200);
    }
    const list = await recent();
    expect(list).toHaveLength(100);
    expect(list[0]!.reason).toBe('r104');
    expect(list[99]!.reason).toBe('r5');
    const times = list.map((p) => Date.parse(p.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // The window includes its start: r44 was created exactly one hour ago.
    expect((await recent('?hours=1')).map((p) => p.reason).at(-1)).toBe('r44');
    const wide = await recent('?hours=73');
    expect(wide).toHaveLength(100);
    expect(wide.some((p) => p.reason === 'old')).toBe(false);
    expect((await recent('?hours=100', KEY_B)).map((p) => p.id)).toEqual(['beta-ban']);
    expect(list.every((p) => p.started === null)).toBe(true);
  });

  it.each([
    ['0', 'hours: must be at least 1'],
    ['8761', 'hours: must be at most 8760'],
    ['two', 'hours: must be a number'],
  ])('rejects hours=%s', async (hours, message) => {
    const response = await t.call('GET', `/punishments/recent?hours=${hours}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(message);
  });

  it('accepts the edges of the limits: hours 1 and 8760, typeOrdinal 0 and 14, duration -1', async () => {
    await recent('?hours=1');
    await recent('?hours=8760');
    for (const typeOrdinal of [0, 14]) {
      const preview = await t.call('GET', `/punishments/preview?playerUuid=${NOTCH}&typeOrdinal=${typeOrdinal}`);
      expect(preview.status).toBe(200);
    }
    const response = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 14,
      issuerName: 'm',
      duration: -1,
    });
    expect(response.status).toBe(200);
    const bad = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 14,
      issuerName: 'm',
      duration: -2,
    });
    expect((await errorOf(bad)).message).toBe('duration: must be -1 (permanent) or a number of milliseconds >= 0');
  });

  it('lists the 15 punishment types', async () => {
    const types = typesResponse.parse(await (await t.call('GET', '/punishments/types')).json()).data;
    expect(types.map((type) => type.ordinal)).toEqual([...Array(15).keys()]);
    expect(types[14]).toEqual({ ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true });
  });
});
