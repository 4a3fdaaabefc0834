import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { excerptOf } from '../../src/api/errors.js';
import { endpointCases, withoutField } from './helpers/endpoint-cases.js';
import { errorResponse, jsonResponse, unreachable, untilAborted } from './helpers/fake-fetch.js';
import { expectApiError, SECRET_KEY } from './helpers/key-leak.js';
import { NOW_MS, testClient } from './helpers/test-client.js';

const workDir = mkdtempSync(join(tmpdir(), 'bailiff-api-'));
const migrationFile = join(workDir, 'migration.json');
const migrationJson = JSON.stringify({ players: [{ minecraftUuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5' }] });
writeFileSync(migrationFile, migrationJson);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

describe.each(endpointCases(migrationFile, Buffer.byteLength(migrationJson)))('$name', (endpoint) => {
  it('sends the documented request and returns the validated body, extra fields kept', async () => {
    const answer = endpoint.okBody === null ? new Response(null) : jsonResponse({ ...endpoint.okBody, extra: 'kept' });
    const { api, calls, timers } = testClient(() => answer);

    const result = await endpoint.call(api);

    expect(result).toEqual(endpoint.okBody === null ? undefined : { ...endpoint.okBody, extra: 'kept' });
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call.method).toBe(endpoint.method);
    expect(call.url.origin).toBe('http://127.0.0.1:8787');
    expect(call.url.pathname).toBe(`/v1/minecraft/${endpoint.path}`);
    expect(Object.fromEntries(call.url.searchParams)).toEqual(endpoint.query ?? {});
    expect(call.headers.get('x-api-key')).toBe(SECRET_KEY);
    expect(call.redirect).toBe('error');
    if (endpoint.sentBody !== undefined) {
      expect(call.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(call.body as string)).toEqual(endpoint.sentBody);
    } else if (endpoint.name === 'uploadMigration') {
      // fetch writes the multipart Content-Type with its boundary itself.
      expect(call.headers.get('content-type')).toBeNull();
      const file = (call.body as FormData).get('migrationFile') as File;
      expect(file.name).toBe('migration.json');
      expect(await file.text()).toBe(migrationJson);
    } else {
      expect(call.body).toBeUndefined();
    }
    expect(timers.pendingCount).toBe(0);
  });

  it.each(endpoint.errorStatuses)(
    'maps documented status %i to a typed error with the service message',
    async (status) => {
      const { api } = testClient(() => errorResponse(status, `what went wrong (${status})`));

      const error = await expectApiError(endpoint.call(api), status === 429 ? 'rate_limited' : 'http');

      expect(error.status).toBe(status);
      expect(error.endpoint).toBe(endpoint.name);
      expect(error.serviceMessage).toBe(`what went wrong (${status})`);
      expect(error.message).toBe(`${endpoint.name}: HTTP ${status} ${PHRASES[status]}: what went wrong (${status})`);
    },
  );

  it('reports malformed JSON as invalid_response with an excerpt', async () => {
    const { api } = testClient(() => new Response('{"success": tru', { status: 200 }));

    const error = await expectApiError(endpoint.call(api), 'invalid_response');

    expect(error).toMatchObject({ endpoint: endpoint.name, status: 200, excerpt: '{"success": tru' });
    expect(error.message).toMatch(new RegExp(`^${endpoint.name}: HTTP 200 OK: malformed JSON: `));
  });

  // createPunishment has no response schema: success is an empty body.
  const requiredField = endpoint.requiredField;
  if (requiredField !== undefined) {
    it('reports a missing required field as invalid_response', async () => {
      const body = withoutField(endpoint.okBody!, requiredField);
      const { api } = testClient(() => jsonResponse(body));

      const error = await expectApiError(endpoint.call(api), 'invalid_response');

      expect(error.status).toBe(200);
      expect(error.issues?.map((issue) => issue.path)).toContain(requiredField.join('.'));
      expect(error.excerpt).toBe(excerptOf(JSON.stringify(body)));
      expect(error.message).toContain(`${endpoint.name}: HTTP 200 OK: response breaks the contract: `);
    });
  }

  it('times out when the injected timer fires before an answer', async () => {
    const { api, calls, timers } = testClient((call) => {
      const pending = untilAborted(call);
      expect(timers.delays()).toEqual([10_000]);
      timers.fireAll();
      return pending;
    });

    const error = await expectApiError(endpoint.call(api), 'timeout');

    expect(error.message).toBe(`${endpoint.name}: no answer within 10000 ms`);
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  describe('429', () => {
    const retryForms: { form: string; headers: Record<string, string>; body: object; expectedMs?: number }[] = [
      { form: 'Retry-After seconds', headers: { 'Retry-After': '7' }, body: {}, expectedMs: 7000 },
      {
        form: 'Retry-After HTTP date',
        headers: { 'Retry-After': new Date(NOW_MS + 30_000).toUTCString() },
        body: {},
        expectedMs: 30_000,
      },
      {
        form: 'X-Rate-Limit-Retry-After-Seconds',
        headers: { 'X-Rate-Limit-Retry-After-Seconds': '12' },
        body: {},
        expectedMs: 12_000,
      },
      { form: 'body retryAfterSeconds', headers: {}, body: { retryAfterSeconds: 3 }, expectedMs: 3000 },
      { form: 'no retry time', headers: {}, body: {}, expectedMs: undefined },
    ];

    it.each(retryForms)('reads the wait from $form', async ({ headers, body, expectedMs }) => {
      const { api } = testClient(() =>
        jsonResponse(
          { status: 429, success: false, error: 'Too Many Requests', message: 'slow down', ...body },
          {
            status: 429,
            headers,
          },
        ),
      );

      const error = await expectApiError(endpoint.call(api), 'rate_limited');

      expect(error.status).toBe(429);
      expect(error.retryAfterMs).toBe(expectedMs);
    });
  });

  it('rejects an invalid request without calling fetch', async () => {
    const { api, calls, timers } = testClient(unreachable);

    const error = await expectApiError(endpoint.badCall(api), 'invalid_request');

    expect(calls).toHaveLength(0);
    expect(timers.pendingCount).toBe(0);
    expect(error.issues?.map((issue) => issue.path)).toContain(endpoint.badPath);
    expect(error.message).toMatch(new RegExp(`^${endpoint.name}: invalid request, not sent: .*${endpoint.badPath}: `));
  });
});
