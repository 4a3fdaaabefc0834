import { describe, expect, it } from 'vitest';
import { isAuthFailure, isRateLimited, isTransient } from '../../src/api/errors.js';
import { errorResponse, jsonResponse, unreachable, untilAborted } from './helpers/fake-fetch.js';
import { expectApiError, SECRET_KEY } from './helpers/key-leak.js';
import { testClient } from './helpers/test-client.js';

describe('failures', () => {
  it('reports a non-JSON error body by status alone, with an excerpt', async () => {
    const { api } = testClient(() => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    const error = await expectApiError(api.recentPunishments(), 'http');
    expect(error.message).toBe('recentPunishments: HTTP 502 Bad Gateway');
    expect(error).toMatchObject({ status: 502, serviceMessage: undefined, excerpt: '<h1>Bad gateway</h1>' });
    expect(isTransient(error)).toBe(true);
  });

  it("keeps the service's own reason phrase", async () => {
    const { api } = testClient(() => new Response('{}', { status: 500, statusText: 'Database Down' }));
    const error = await expectApiError(api.recentPunishments(), 'http');
    expect(error.message).toBe('recentPunishments: HTTP 500 Database Down');
  });

  it("reads a 503's Retry-After as when to come back, keeps its message, and leaves the gate open", async () => {
    const { api, calls } = testClient((call) =>
      call.url.pathname.endsWith('recent')
        ? errorResponse(503, 'the database cannot be reached', { 'Retry-After': '5' })
        : jsonResponse({ data: [] }),
    );
    const error = await expectApiError(api.recentPunishments(), 'http');
    expect(error).toMatchObject({ status: 503, retryAfterMs: 5000, serviceMessage: 'the database cannot be reached' });
    expect(error.message).toBe(
      'recentPunishments: HTTP 503 Service Unavailable: the database cannot be reached (retry after 5000 ms)',
    );
    expect([isTransient(error), isRateLimited(error)]).toEqual([true, false]);
    await api.punishmentTypes();
    expect(calls).toHaveLength(2);
  });

  it('classifies errors for retry decisions', async () => {
    // One client each: a 401 or a 429 closes a client's gate for its next calls.
    const answering = (status: number) =>
      testClient(() => errorResponse(status, 'no', { 'Retry-After': '1' })).api.recentPunishments();
    const unauthorized = await expectApiError(answering(401), 'http');
    const rateLimited = await expectApiError(answering(429), 'rate_limited');
    const badRequest = await expectApiError(answering(400), 'http');
    expect([isAuthFailure(unauthorized), isTransient(unauthorized)]).toEqual([true, false]);
    expect([isRateLimited(rateLimited), isTransient(rateLimited)]).toEqual([true, true]);
    expect(isTransient(badRequest)).toBe(false);
  });

  it('maps a fetch rejection to network, chaining the cause', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8787'), { code: 'ECONNREFUSED' });
    const failure = new TypeError('fetch failed', { cause: refused });
    const { api } = testClient(() => Promise.reject(failure));
    const error = await expectApiError(api.punishmentTypes(), 'network');
    expect(error.message).toBe('punishmentTypes: network error: fetch failed: connect ECONNREFUSED 127.0.0.1:8787');
    expect(error.cause).toBe(failure);
    expect(isTransient(error)).toBe(true);
  });

  it('redacts a key that a custom fetch put into its rejection and its cause chain', async () => {
    const inner = Object.assign(new Error(`header X-API-Key: ${SECRET_KEY} refused`), { code: 'EPROTO' });
    const { api } = testClient(() => Promise.reject(new Error(`bad request with ${SECRET_KEY}`, { cause: inner })));
    const error = await expectApiError(api.punishmentTypes(), 'network');
    expect(error.message).toBe(
      'punishmentTypes: network error: bad request with [redacted]: header X-API-Key: [redacted] refused',
    );
    const cause = error.cause as Error & { cause: Error & { code: string } };
    expect(cause.message).toBe('bad request with [redacted]');
    expect(cause.cause).toMatchObject({ message: 'header X-API-Key: [redacted] refused', code: 'EPROTO' });
  });

  it('redacts a key that the service echoes back in an error body', async () => {
    const { api } = testClient(() => errorResponse(401, `unknown key ${SECRET_KEY}`));
    const error = await expectApiError(api.punishmentTypes(), 'http');
    expect(error.serviceMessage).toBe('unknown key [redacted]');
    expect(error.message).toBe('punishmentTypes: HTTP 401 Unauthorized: unknown key [redacted]');
    expect(error.excerpt).toContain('[redacted]');
    expect(JSON.stringify(error)).toContain('"kind":"http"');
  });

  it('redacts a key echoed inside a malformed response', async () => {
    const { api } = testClient(() => jsonResponse({ data: [{ title: SECRET_KEY }] }));
    await expectApiError(api.punishmentTypes(), 'invalid_response');
  });

  it('times out while the body is still arriving', async () => {
    const { api, timers } = testClient(() => {
      const endless = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{')) });
      queueMicrotask(() => timers.fireAll());
      return new Response(endless);
    });
    const error = await expectApiError(api.punishmentTypes(), 'timeout');
    expect(isTransient(error)).toBe(true);
  });

  it('times out even when fetch ignores the abort signal', async () => {
    const { api, timers } = testClient(() => {
      timers.fireAll();
      return new Promise<Response>(() => {});
    });
    await expectApiError(api.punishmentTypes(undefined, { timeoutMs: 50 }), 'timeout');
  });

  it('ends a call as network when the caller aborts it, and clears its timer', async () => {
    const caller = new AbortController();
    const { api, timers } = testClient((call) => {
      const pending = untilAborted(call);
      caller.abort(new Error('shutting down'));
      return pending;
    });
    const error = await expectApiError(api.punishmentTypes(undefined, { signal: caller.signal }), 'network');
    expect(error.message).toBe('punishmentTypes: aborted by the caller');
    expect(timers.pendingCount).toBe(0);
  });

  it('never calls fetch with an already aborted signal', async () => {
    const { api, calls } = testClient(unreachable);
    const error = await expectApiError(api.punishmentTypes(undefined, { signal: AbortSignal.abort() }), 'network');
    expect(error.message).toBe('punishmentTypes: aborted by the caller before sending');
    expect(calls).toHaveLength(0);
  });

  it('reports a migration file that cannot be opened as invalid_request, never sent', async () => {
    const { api, calls } = testClient(unreachable);
    const error = await expectApiError(
      api.uploadMigration({ filePath: '/nonexistent/bailiff/migration.json' }),
      'invalid_request',
    );
    expect(error.issues?.[0]).toMatchObject({ path: 'filePath' });
    expect(error.message).toContain('cannot open /nonexistent/bailiff/migration.json');
    expect(calls).toHaveLength(0);
  });
});
