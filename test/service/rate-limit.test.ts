import { afterEach, describe, expect, it } from 'vitest';
import { errorBody } from '../../src/contract/schemas.js';
import { errorOf, KEY_A1, KEY_A2, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService | undefined;
afterEach(() => t?.close());

const ack = (service: TestService, apiKey = KEY_A1) =>
  service.call('POST', '/notifications/acknowledge', { playerUuid: NOTCH, notificationIds: [] }, apiKey);

describe('rate limit (token bucket per API key)', () => {
  it('answers 429 with Retry-After and retryAfterSeconds once the bucket is empty, and refills with the clock', async () => {
    t = await startTestService({ rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i += 1) expect((await ack(t)).status).toBe(200);
    const limited = await ack(t);
    expect(limited.status).toBe(429);
    // One token comes back every 20 s at 3 a minute.
    expect(limited.headers.get('retry-after')).toBe('20');
    const body = await errorOf(limited);
    expect(errorBody.parse(body).retryAfterSeconds).toBe(20);
    expect(body.error).toBe('Too Many Requests');

    // Another server's key has its own bucket.
    expect((await ack(t, KEY_A2)).status).toBe(200);

    t.clock.advance(20_000);
    expect((await ack(t)).status).toBe(200);
    expect((await ack(t)).status).toBe(429);
  });

  it('shares one bucket across the limited routes and leaves the others alone by default', async () => {
    t = await startTestService({ rateLimitPerMinute: 2 });
    expect((await t.call('GET', '/tickets/missing')).status).toBe(404);
    expect((await t.call('POST', '/migration/progress', { status: 'processing', message: 'x' })).status).toBe(200);
    expect((await t.call('GET', `/tickets/player/${NOTCH}`)).status).toBe(429);
    expect((await t.call('GET', '/punishments/recent')).status).toBe(200);
  });

  it('answers 429 on each of the five routes whose 429 the contract documents', async () => {
    t = await startTestService({ rateLimitPerMinute: 1 });
    expect((await ack(t)).status).toBe(200);
    const form = new FormData();
    form.append('migrationFile', new Blob(['{"players": []}'], { type: 'application/json' }), 'export.json');
    const limitedCalls: [string, () => Promise<Response>][] = [
      ['acknowledge notifications', () => ack(t!)],
      ['get ticket', () => t!.call('GET', '/tickets/any')],
      ['get player tickets', () => t!.call('GET', `/tickets/player/${NOTCH}`)],
      [
        'upload migration file',
        () => fetch(`${t!.base}/migration/upload`, { method: 'POST', body: form, headers: { 'x-api-key': KEY_A1 } }),
      ],
      ['migration progress', () => t!.call('POST', '/migration/progress', { status: 'processing', message: 'x' })],
    ];
    for (const [endpoint, call] of limitedCalls) {
      const limited = await call();
      expect({ endpoint, status: limited.status, retryAfter: limited.headers.get('retry-after') }).toEqual({
        endpoint,
        status: 429,
        retryAfter: '60',
      });
      expect(errorBody.parse(await errorOf(limited)).retryAfterSeconds).toBe(60);
    }
  });

  it('limits every route when asked to', async () => {
    t = await startTestService({ rateLimitPerMinute: 1, rateLimitAllRoutes: true });
    expect((await t.call('GET', '/punishments/types')).status).toBe(200);
    const limited = await t.call('GET', '/punishments/recent');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
  });
});
