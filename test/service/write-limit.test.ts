import { afterEach, describe, expect, it } from 'vitest';
import { errorBody } from '../../src/contract/schemas.js';
import { DEFAULT_WRITE_RATE_LIMIT_PER_MINUTE } from '../../src/service/index.js';
import { errorOf, KEY_A1, KEY_A2, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

// Issue 23, point 7: every write is under a per-key limit by default.
let t: TestService | undefined;
afterEach(() => t?.close());

const create = (service: TestService, apiKey = KEY_A1) =>
  service.call('POST', '/punishments/create', { targetUuid: NOTCH, type_ordinal: 0 }, apiKey);

const WRITE_ROUTES = [
  '/punishments/create',
  '/punishments/dynamic',
  '/punishments/some-id/evidence',
  '/punishments/acknowledge',
  '/punishments/some-id/pardon',
  '/players/login',
  '/tickets/some-id/claim',
  '/tickets/some-id/close',
  '/tickets/some-id/staff-replies',
];

describe('the write bucket per API key', () => {
  it('limits every write of a key, leaves other keys and the request bucket alone, and refills with the clock', async () => {
    t = await startTestService({ writeRateLimitPerMinute: 3 });
    for (let index = 0; index < 3; index += 1) expect((await create(t)).status).toBe(200);

    const limited = await create(t);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('20');
    const body = errorBody.parse(await errorOf(limited));
    expect(body).toMatchObject({
      retryAfterSeconds: 20,
      message: 'rate limit of 3 writes a minute exceeded, retry in 20 s',
    });
    for (const path of WRITE_ROUTES) {
      expect({ path, status: (await t.call('POST', path, {})).status }).toEqual({ path, status: 429 });
    }

    // Another server of the network and another network each have their own bucket.
    expect((await create(t, KEY_A2)).status).toBe(200);
    expect((await t.call('POST', '/players/login', { uuid: NOTCH, name: 'Notch' }, KEY_B)).status).toBe(200);
    // Reads and the request bucket are not spent by writes.
    expect((await t.call('GET', '/punishments/recent')).status).toBe(200);
    expect(
      (await t.call('POST', '/notifications/acknowledge', { playerUuid: NOTCH, notificationIds: [] })).status,
    ).toBe(200);

    t.clock.advance(20_000);
    expect((await create(t)).status).toBe(200);
    expect((await create(t)).status).toBe(429);
  });

  it(`limits writes by default, at ${DEFAULT_WRITE_RATE_LIMIT_PER_MINUTE} a minute`, async () => {
    t = await startTestService();
    const register = () => t!.call('POST', '/players/login', { uuid: NOTCH, name: 'Notch' });
    const statuses: number[] = [];
    for (let sent = 0; sent < DEFAULT_WRITE_RATE_LIMIT_PER_MINUTE; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, register));
      statuses.push(...batch.map((response) => response.status));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const limited = await register();
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).message).toBe(
      `rate limit of ${DEFAULT_WRITE_RATE_LIMIT_PER_MINUTE} writes a minute exceeded, retry in 1 s`,
    );
  });

  it('player lookups spend the request bucket', async () => {
    t = await startTestService({ rateLimitPerMinute: 2 });
    expect((await t.call('GET', '/players/lookup?name=Notch')).status).toBe(200);
    expect((await t.call('GET', '/players/lookup?name=Notch')).status).toBe(200);
    expect((await t.call('GET', '/players/lookup?name=Notch')).status).toBe(429);
  });
});
