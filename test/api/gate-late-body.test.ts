import { describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import { FakeTime } from '../support/fake-time.js';
import { fakeFetch, jsonResponse, type Responder } from './helpers/fake-fetch.js';
import { expectApiError, SECRET_KEY } from './helpers/key-leak.js';

const TYPES = { data: [{ ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true }] };
const START_MS = Date.UTC(2026, 0, 1);
const ERROR_BODY = { status: 429, success: false, error: 'Too Many Requests', message: 'slow down' };

/** An answer whose status line and headers arrive now and whose body only when `deliver` is called. */
function lateBody(status: number, headers: Record<string, string>, body: unknown) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
    },
  });
  const response = new Response(stream, { status, headers: { 'content-type': 'application/json', ...headers } });
  return {
    response,
    deliver() {
      controller.enqueue(new TextEncoder().encode(JSON.stringify(body)));
      controller.close();
    },
  };
}

/**
 * Where the 429 gives its wait of 2 s, when (ms after the start) the gate opens again, and the
 * wait the failed call reports once its body is read (1.5 s after the start).
 */
const CHANNELS = [
  // The body is read 1.5 s after the status line: a wait in the body counts from then.
  {
    name: 'the body only',
    headers: {},
    body: { ...ERROR_BODY, retryAfterSeconds: 2 },
    opensAfterMs: 3500,
    readAsMs: 2000,
  },
  { name: 'Retry-After only', headers: { 'Retry-After': '2' }, body: ERROR_BODY, opensAfterMs: 3500, readAsMs: 2000 },
  {
    name: 'Retry-After and the body',
    headers: { 'Retry-After': '2' },
    body: { ...ERROR_BODY, retryAfterSeconds: 2 },
    opensAfterMs: 3500,
    readAsMs: 2000,
  },
  {
    name: 'X-Rate-Limit-Retry-After-Seconds only',
    headers: { 'X-Rate-Limit-Retry-After-Seconds': '2' },
    body: ERROR_BODY,
    opensAfterMs: 3500,
    readAsMs: 2000,
  },
  // An HTTP date names the moment itself: 2 s after the status line came.
  {
    name: 'Retry-After as an HTTP date',
    headers: { 'Retry-After': new Date(START_MS + 2000).toUTCString() },
    body: ERROR_BODY,
    opensAfterMs: 2000,
    readAsMs: 500,
  },
] as const;

/** The call, its failure handled at once (it may fail while time is being advanced) and looked at later. */
function outcomeOf<T>(call: Promise<T>): Promise<T> {
  call.catch(() => {});
  return call;
}

function clientWith(responder: Responder, gate: RateLimitGate) {
  const time = new FakeTime(START_MS);
  const { fetch, calls } = fakeFetch(responder);
  const api = createModerationClient({
    baseUrl: 'http://127.0.0.1:8787',
    apiKey: SECRET_KEY,
    fetch,
    clock: time,
    timers: time,
    timeoutMs: 10_000,
    gate,
  });
  return { api, calls, time };
}

describe('a 429 whose body comes after its status line', () => {
  it.each(CHANNELS)(
    'with its wait in $name, nothing leaves from the status line on: not a call waiting in the budget queue, not a new one',
    async ({ headers, body, opensAfterMs, readAsMs }) => {
      const limited = lateBody(429, headers, body);
      const { api, calls, time } = clientWith(
        (call) => (call.url.pathname.endsWith('recent') ? limited.response : jsonResponse(TYPES)),
        new RateLimitGate({ requestsPerMinute: 60 }),
      );
      const poll = outcomeOf(api.recentPunishments());
      // Claimed and waiting in line for the budget (one a second) when the 429's status line arrives.
      const queued = outcomeOf(api.punishmentTypes());
      await time.advance(1000);
      const started = outcomeOf(api.punishmentTypes());
      await time.advance(500);
      expect(calls.map((call) => call.url.pathname)).toEqual(['/v1/minecraft/punishments/recent']);

      limited.deliver();
      expect(await expectApiError(poll, 'rate_limited')).toMatchObject({ status: 429, retryAfterMs: readAsMs });
      for (const held of [queued, started]) {
        expect(await expectApiError(held, 'rate_limited')).toMatchObject({ gated: 'rate-limited' });
      }
      expect(calls).toHaveLength(1);

      await time.advance(opensAfterMs - 1 - 1500);
      await expectApiError(api.punishmentTypes(), 'rate_limited');
      expect(calls).toHaveLength(1);
      await time.advance(1);
      await expect(api.punishmentTypes()).resolves.toEqual(TYPES);
      expect(calls).toHaveLength(2);
    },
  );

  it('a body that never comes leaves the gate closed for the wait of a 429 that gives none (30 s)', async () => {
    const limited = lateBody(429, {}, ERROR_BODY);
    const gate = new RateLimitGate();
    const { api, calls, time } = clientWith(
      (call) => (call.url.pathname.endsWith('recent') ? limited.response : jsonResponse(TYPES)),
      gate,
    );
    const poll = outcomeOf(api.recentPunishments());
    await time.advance(2000);
    const waiting = outcomeOf(api.punishmentTypes());
    await time.advance(8000);
    expect(await expectApiError(poll, 'timeout')).toMatchObject({ endpoint: 'recentPunishments' });
    expect(await expectApiError(waiting, 'rate_limited')).toMatchObject({ gated: 'rate-limited' });
    expect(gate.closure(time.now())).toEqual({
      reason: 'rate-limited',
      endpoint: 'recentPunishments',
      untilMs: START_MS + 10_000 + 30_000,
    });
    expect(calls).toHaveLength(1);
  });

  it("a player call's 429 still being read holds back player calls only", async () => {
    const limited = lateBody(429, {}, { ...ERROR_BODY, retryAfterSeconds: 5 });
    const gate = new RateLimitGate();
    const { api, calls, time } = clientWith(
      (call) => (call.url.pathname.includes('/tickets/') ? limited.response : jsonResponse(TYPES)),
      gate,
    );
    const player = outcomeOf(
      api.getPlayerTickets({ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5' }, { lane: 'player' }),
    );
    await time.advance(100);
    await expectApiError(api.punishmentTypes(undefined, { lane: 'player' }), 'rate_limited');
    await expect(api.punishmentTypes()).resolves.toEqual(TYPES);
    limited.deliver();
    await expectApiError(player, 'rate_limited');
    expect(gate.admitPlayerCall('punishmentTypes', time.now())).toMatchObject({ untilMs: time.now() + 5000 });
    expect(calls).toHaveLength(2);
  });
});
