import { describe, expect, it } from 'vitest';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import { errorResponse, jsonResponse } from './helpers/fake-fetch.js';
import { expectApiError } from './helpers/key-leak.js';
import { NOW_MS, testClient } from './helpers/test-client.js';

const TYPES = { data: [{ ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true }] };
const STEVE = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const TICKETS = { tickets: [] };

function clientAt(responder: Parameters<typeof testClient>[0], gate: RateLimitGate) {
  const clock = { current: NOW_MS, now: () => clock.current };
  const client = testClient(responder, { clock, gate });
  return { ...client, clock, gate };
}

const flush = async () => {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
};

describe('waiting for the request budget', () => {
  it('a request whose caller gave up while it waited is never sent, and the calls behind it move up', async () => {
    const { api, calls, timers, clock } = clientAt(
      () => jsonResponse(TYPES),
      new RateLimitGate({ requestsPerMinute: 60 }),
    );
    await api.punishmentTypes();
    // Fourteen login checks wait behind the first (one a second), then each join gives up.
    const joins = Array.from({ length: 14 }, () => new AbortController());
    const checks = joins.map((join) => api.punishmentTypes(undefined, { signal: join.signal }));
    for (const join of joins) join.abort(new Error('the join stopped waiting'));
    for (const check of checks) await expectApiError(check, 'network');

    const staff = api.punishmentTypes();
    await flush();
    expect(timers.delays()).toEqual([1000]);
    clock.current += 1000;
    timers.fireAll();
    await expect(staff).resolves.toEqual(TYPES);
    expect(calls).toHaveLength(2);
  });

  it('tells the caller its request was given up before it left', async () => {
    const { api } = clientAt(() => jsonResponse(TYPES), new RateLimitGate({ requestsPerMinute: 60 }));
    await api.punishmentTypes();
    const join = new AbortController();
    const check = api.punishmentTypes(undefined, { signal: join.signal });
    await flush();
    join.abort();
    const error = await expectApiError(check, 'network');
    expect(error.message).toBe(
      'punishmentTypes: aborted by the caller while waiting for the request budget, never sent',
    );
  });

  it('lets waiting calls go in order, one per slot', async () => {
    const { api, calls, timers, clock } = clientAt(
      () => jsonResponse(TYPES),
      new RateLimitGate({ requestsPerMinute: 60 }),
    );
    await api.punishmentTypes();
    const second = api.punishmentTypes();
    const third = api.punishmentTypes();
    await flush();
    expect(timers.delays()).toEqual([1000]);
    clock.current += 1000;
    timers.fireAll();
    await second;
    expect(calls).toHaveLength(2);
    await flush();
    expect(timers.delays()).toEqual([1000]);
    clock.current += 1000;
    timers.fireAll();
    await third;
    expect(calls).toHaveLength(3);
  });
});

describe('player-triggered calls (lane player)', () => {
  it('never wait: they go now within their share, else are held back without being sent', async () => {
    const { api, calls, clock } = clientAt(
      (call) => jsonResponse(call.url.pathname.includes('/tickets/') ? TICKETS : TYPES),
      new RateLimitGate({ requestsPerMinute: 600, playerRequestsPerMinute: 60 }),
    );
    // Five seconds' worth of the share may go at once.
    for (let call = 0; call < 5; call++) await api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' });
    const held = await expectApiError(api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' }), 'rate_limited');
    expect(held).toMatchObject({ gated: 'rate-limited', retryAfterMs: 1000 });
    expect(held.message).toContain('player-triggered calls are held back');
    expect(calls).toHaveLength(5);
    // Staff calls keep the rest of the budget.
    await api.punishmentTypes();
    expect(calls).toHaveLength(6);
    clock.current += 1000;
    await api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' });
    expect(calls).toHaveLength(7);
  });

  it('use their share as a rate per minute: five in one second, every five seconds, all go', async () => {
    const { api, calls, clock } = clientAt(
      () => jsonResponse(TICKETS),
      new RateLimitGate({ requestsPerMinute: 900, playerRequestsPerMinute: 90 }),
    );
    let held = 0;
    for (let cycle = 0; cycle < 12; cycle++) {
      for (let player = 0; player < 5; player++) {
        await api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' }).catch(() => {
          held += 1;
        });
        clock.current += 200;
      }
      clock.current += 4000;
    }
    expect(held).toBe(0);
    expect(calls).toHaveLength(60);
  });

  it('a 429 answering a player call holds back player calls only: staff, sync and login checks still go', async () => {
    const { api, calls, gate, clock } = clientAt(
      (call) =>
        call.url.pathname.includes('/tickets/')
          ? errorResponse(429, 'slow down', { 'Retry-After': '20' })
          : jsonResponse(TYPES),
      new RateLimitGate({ requestsPerMinute: 600, playerRequestsPerMinute: 60 }),
    );
    await expectApiError(api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' }), 'rate_limited');
    expect(gate.closure(clock.now())).toBeUndefined();
    await expect(api.punishmentTypes()).resolves.toEqual(TYPES);

    clock.current += 5000;
    const held = await expectApiError(api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' }), 'rate_limited');
    expect(held.retryAfterMs).toBe(15_000);
    expect(calls.map((call) => call.url.pathname.split('/').at(-2))).toEqual(['player', 'punishments']);
  });

  it('are held back while shared calls wait for the budget', async () => {
    const { api, calls, timers, clock } = clientAt(
      () => jsonResponse(TYPES),
      new RateLimitGate({ requestsPerMinute: 60, playerRequestsPerMinute: 30 }),
    );
    await api.punishmentTypes();
    const staff = api.punishmentTypes();
    await flush();
    await expectApiError(api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' }), 'rate_limited');
    clock.current += 1000;
    timers.fireAll();
    await staff;
    expect(calls).toHaveLength(2);
  });

  it('are held back while a 429 on a shared call keeps the gate closed', async () => {
    const { api, calls } = clientAt(
      (call) =>
        call.url.pathname.endsWith('recent')
          ? errorResponse(429, 'slow down', { 'Retry-After': '5' })
          : jsonResponse(TICKETS),
      new RateLimitGate({ requestsPerMinute: 600, playerRequestsPerMinute: 60 }),
    );
    await expectApiError(api.recentPunishments(), 'rate_limited');
    const held = await expectApiError(api.getPlayerTickets({ uuid: STEVE }, { lane: 'player' }), 'rate_limited');
    expect(held.message).toContain('the service asked to wait (429 on recentPunishments)');
    expect(calls).toHaveLength(1);
  });
});
