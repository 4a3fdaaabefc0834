import { describe, expect, it } from 'vitest';
import { ExtensionSupport } from '../../src/api/extension-support.js';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import { errorResponse, jsonResponse } from './helpers/fake-fetch.js';
import { expectApiError } from './helpers/key-leak.js';
import { NOW_MS, testClient } from './helpers/test-client.js';

const TYPES = { data: [{ ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true }] };

function clientAt(responder: Parameters<typeof testClient>[0], gate = new RateLimitGate()) {
  const clock = { current: NOW_MS, now: () => clock.current };
  const client = testClient(responder, { clock, gate });
  return { ...client, clock, gate };
}

describe('rate-limit gate', () => {
  const channels = [
    ['Retry-After', { 'Retry-After': '2' }, {}],
    ['X-Rate-Limit-Retry-After-Seconds', { 'X-Rate-Limit-Retry-After-Seconds': '2' }, {}],
    ['the body', {}, { retryAfterSeconds: 2 }],
  ] as const;

  it.each(channels)(
    'a 429 with its wait in %s keeps every other call from leaving until then',
    async (_, headers, body) => {
      const { api, calls, clock } = clientAt((call) =>
        call.url.pathname.endsWith('recent')
          ? jsonResponse({ status: 429, success: false, message: 'slow down', ...body }, { status: 429, headers })
          : jsonResponse(TYPES),
      );
      await expectApiError(api.recentPunishments(), 'rate_limited');

      clock.current = NOW_MS + 1999;
      const held = await expectApiError(api.punishmentTypes(), 'rate_limited');
      expect(held).toMatchObject({ gated: 'rate-limited', retryAfterMs: 1, endpoint: 'punishmentTypes' });
      expect(held.message).toBe(
        'punishmentTypes: not sent: the service asked to wait (429 on recentPunishments); the gate opens in 1 s',
      );
      expect(calls).toHaveLength(1);

      clock.current = NOW_MS + 2000;
      await expect(api.punishmentTypes()).resolves.toEqual(TYPES);
      expect(calls).toHaveLength(2);
    },
  );

  it('waits 30 s after a 429 that gave no wait', async () => {
    const { api, gate } = clientAt(() => errorResponse(429, 'slow down'));
    await expectApiError(api.punishmentTypes(), 'rate_limited');
    expect(gate.closure(NOW_MS)).toEqual({
      reason: 'rate-limited',
      endpoint: 'punishmentTypes',
      untilMs: NOW_MS + 30_000,
    });
  });

  it('is shared: a 429 met by one client holds the calls of another client of the same gate', async () => {
    const gate = new RateLimitGate();
    const first = clientAt(() => errorResponse(429, 'slow down', { 'Retry-After': '5' }), gate);
    const second = clientAt(() => jsonResponse(TYPES), gate);
    await expectApiError(first.api.punishmentTypes(), 'rate_limited');
    await expectApiError(second.api.punishmentTypes(), 'rate_limited');
    expect(second.calls).toEqual([]);
  });

  it('a 401 closes it with a doubling wait, says so once, and opens for good once the key works', async () => {
    let accept = false;
    const { api, calls, clock, gate } = clientAt(() => (accept ? jsonResponse(TYPES) : errorResponse(401, 'bad key')));
    const rejections: unknown[] = [];
    gate.events.on('gate:key-rejected', (event) => rejections.push(event));

    const first = await expectApiError(api.punishmentTypes(), 'http');
    expect(first).toMatchObject({ status: 401, retryAfterMs: 5000 });
    const held = await expectApiError(api.recentPunishments(), 'rate_limited');
    expect(held).toMatchObject({ gated: 'key-rejected' });
    clock.current += 5000;
    expect(await expectApiError(api.punishmentTypes(), 'http')).toMatchObject({ retryAfterMs: 10_000 });
    expect(rejections).toEqual([{ endpoint: 'punishmentTypes' }]);
    expect(gate.isKeyRejected).toBe(true);

    accept = true;
    clock.current += 10_000;
    await api.punishmentTypes();
    expect(gate.isKeyRejected).toBe(false);
    await api.punishmentTypes();
    expect(calls).toHaveLength(4);
  });

  it('spaces calls to its requests-per-minute budget across every method', async () => {
    const { api, calls, timers } = clientAt(
      (call) => jsonResponse(call.url.pathname.endsWith('recent') ? { punishments: [] } : TYPES),
      new RateLimitGate({ requestsPerMinute: 60 }),
    );
    await api.punishmentTypes();
    const second = api.recentPunishments();
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    expect(timers.delays()).toEqual([1000]);
    timers.fireAll();
    await expect(second).resolves.toEqual({ punishments: [] });
    expect(calls).toHaveLength(2);
  });
});

describe('extensions', () => {
  it('remembers a 404 from an extension, and a 2xx from it, never from a contract route', async () => {
    const extensions = new ExtensionSupport({ reprobeAfterMs: 600_000 });
    const { api } = testClient(
      (call) =>
        call.url.pathname.endsWith('login') ? errorResponse(404, 'no route') : errorResponse(404, 'no ticket'),
      {
        extensions,
      },
    );
    await expectApiError(api.getTicket({ id: 't-1' }), 'http');
    expect(extensions.state('registerPlayer')).toEqual({ state: 'unknown' });
    await expectApiError(api.registerPlayer({ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' }), 'http');
    expect(extensions.state('registerPlayer')).toEqual({ state: 'missing', retryAt: NOW_MS + 600_000 });
    expect(extensions.isMissing('registerPlayer', NOW_MS + 599_999)).toBe(true);
    expect(extensions.isMissing('registerPlayer', NOW_MS + 600_000)).toBe(false);
  });

  it('keeps what it learnt in its store, so a restart remembers it', () => {
    const saved = new Map<string, number>();
    const store = {
      load: () => [...saved].map(([name, missingUntil]) => ({ name, missingUntil })),
      save: (name: string, until: number) => saved.set(name, until),
      remove: (name: string) => saved.delete(name),
    };
    new ExtensionSupport({ reprobeAfterMs: 1000, store }).markMissing('stream', NOW_MS);
    const restarted = new ExtensionSupport({ reprobeAfterMs: 1000, store });
    expect(restarted.isMissing('stream', NOW_MS + 999)).toBe(true);
    restarted.markOffered('stream');
    expect(saved.size).toBe(0);
  });
});
