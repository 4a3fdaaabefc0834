import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../src/contract/schemas.js';
import { errorOf, KEY_A1, NOTCH, startTestService, type TestService } from './helpers/fixture.js';
import { rawRequest } from './helpers/raw-http.js';

// Issue 12, cases 3-7: requests the framework or a parser refuses still get the documented error shape.
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

const uploadPath = '/v1/minecraft/migration/upload';

function multipart(contentType: string, body: string) {
  return fetch(t.service.url + uploadPath, {
    method: 'POST',
    headers: { 'x-api-key': KEY_A1, 'content-type': contentType },
    body,
  });
}

const part = (boundary: string, eol = '\r\n') =>
  `--${boundary}${eol}Content-Disposition: form-data; name="migrationFile"; filename="e.json"${eol}` +
  `Content-Type: application/json${eol}${eol}{"players": []}${eol}`;

function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let level = 0; level < depth; level += 1) value = { inner: value };
  return value;
}

// Built as text: JSON.stringify itself overflows the stack at this depth.
const nestedJson = (depth: number) => `${'{"inner":'.repeat(depth)}{"leaf":true}${'}'.repeat(depth)}`;
const withField = (body: object, field: string, json: string) =>
  `${JSON.stringify(body).slice(0, -1)},${JSON.stringify(field)}:${json}}`;

describe('malformed multipart uploads (case 3)', () => {
  it.each([
    ['no boundary', 'multipart/form-data', part('xyz')],
    ['mismatched closing boundary', 'multipart/form-data; boundary=xyz', `${part('xyz')}--abc--\r\n`],
    ['missing closing boundary', 'multipart/form-data; boundary=xyz', part('xyz')],
    ['truncated body', 'multipart/form-data; boundary=xyz', part('xyz').slice(0, 40)],
    ['LF-only line endings', 'multipart/form-data; boundary=xyz', `${part('xyz', '\n')}--xyz--\n`],
    ['bare JSON', 'multipart/form-data; boundary=xyz', '{"players": []}'],
  ])('%s answers 400 in the error shape', async (_name, contentType, body) => {
    const response = await multipart(contentType, body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^(body|migrationFile): /);
    expect((await t.call('GET', '/punishments/types')).status).toBe(200);
  });

  it('a well-formed upload still goes through', async () => {
    const response = await multipart('multipart/form-data; boundary=xyz', `${part('xyz')}--xyz--\r\n`);
    expect(response.status).toBe(200);
  });
});

describe('deeply nested data (case 4)', () => {
  it.each([
    ['create', '/punishments/create', { targetUuid: NOTCH, type_ordinal: 0 }],
    ['dynamic', '/punishments/dynamic', { targetUuid: NOTCH, typeOrdinal: 0, issuerName: 'mod' }],
  ])('%s: 5,000 levels of data answer 400 naming data, and store nothing', async (_name, path, body) => {
    const before = await (await t.call('GET', '/punishments/recent')).json();
    const response = await t.call('POST', path, withField(body, 'data', nestedJson(5000)));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe('data: must not nest deeper than 32 levels');
    expect(await (await t.call('GET', '/punishments/recent')).json()).toEqual(before);
  });

  it('data at the depth limit is stored; data over the size limit is refused', async () => {
    const deep = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 0,
      issuerName: 'mod',
      data: { value: nested(30) },
    });
    expect(deep.status).toBe(200);
    const big = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 0,
      issuerName: 'mod',
      data: { text: 'x'.repeat(70_000) },
    });
    expect((await errorOf(big)).message).toBe('data: must be at most 65536 bytes as JSON');
  });

  it('a whole body nested past the limit answers 400 naming its top field', async () => {
    const response = await t.call(
      'POST',
      '/notifications/acknowledge',
      withField({ playerUuid: NOTCH }, 'extra', nestedJson(5000)),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe('extra: must not nest deeper than 32 levels');
  });
});

describe('long path ids (case 5)', () => {
  const longId = 'p'.repeat(150);

  it('authentication runs first, whatever the id length', async () => {
    const response = await t.call('GET', `/tickets/${'t'.repeat(5000)}`, undefined, null);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toBe('missing X-API-Key header');
  });

  it('an id up to the stored limit is looked up; a longer one is a 400 naming the id', async () => {
    const found = await t.call('POST', `/punishments/${longId}/evidence`, {
      issuerName: 'mod',
      evidenceUrl: 'https://example.com/a.png',
    });
    expect((await errorOf(found)).message).toBe(`punishment ${longId} not found`);
    const ticket = await t.call('GET', `/tickets/${'t'.repeat(256)}`);
    expect(ticket.status).toBe(404);
    const tooLong = await t.call('GET', `/tickets/${'t'.repeat(257)}`);
    expect(tooLong.status).toBe(400);
    expect((await errorOf(tooLong)).message).toBe('id: must be at most 256 characters');
  });
});

describe('framework errors (case 6)', () => {
  it('malformed HTTP gets the error shape and the connection is closed', async () => {
    const response = await rawRequest(t.service.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(response.status).toBe(400);
    expect(response.headers.connection).toBe('close');
    expect(errorBody.parse(JSON.parse(response.body))).toMatchObject({ status: 400, success: false });
    expect(response.closed).toBe(true);
  });

  it.each([
    ['a missing Host in HTTP/1.1', 'POST /v1/minecraft/punishments/types HTTP/1.1\r\n\r\n', 400],
    ['CONNECT', 'CONNECT /v1/minecraft/punishments/types HTTP/1.1\r\nHost: a\r\n\r\n', 405],
  ])('%s gets the error shape, where node would answer an empty body or nothing', async (_name, request, status) => {
    const response = await rawRequest(t.service.port, request);
    expect(response.status).toBe(status);
    expect(errorBody.parse(JSON.parse(response.body))).toMatchObject({ status, success: false });
  });

  it('bad percent-encoding gets the error shape without echoing the path', async () => {
    const response = await t.call('GET', '/tickets/%zz-secret-looking-path');
    expect(response.status).toBe(400);
    const body = await errorOf(response);
    expect(body.message).toBe('path: not a valid URL (bad percent-encoding)');
    expect(JSON.stringify(body)).not.toContain('secret-looking-path');
  });

  it('headers over 16 KB get 431 in the error shape with Connection: close; the client carries on', async () => {
    const huge = 'x'.repeat(20_000);
    const raw = await rawRequest(
      t.service.port,
      `GET /v1/minecraft/punishments/types HTTP/1.1\r\nHost: a\r\nX-Big: ${huge}\r\n\r\n`,
    );
    expect(raw.status).toBe(431);
    expect(raw.headers.connection).toBe('close');
    expect(errorBody.parse(JSON.parse(raw.body))).toMatchObject({
      status: 431,
      message: 'headers: larger than 16384 bytes',
    });

    const overflow = await fetch(`${t.base}/punishments/types`, { headers: { 'x-api-key': KEY_A1, 'x-big': huge } });
    expect(overflow.status).toBe(431);
    await errorOf(overflow);
    expect((await t.call('GET', '/punishments/types')).status).toBe(200);
  });
});

describe('stream handshake (case 7)', () => {
  it.each([
    ['no Sec-WebSocket-Key', 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n'],
    [
      'a bad version',
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n',
    ],
  ])('a valid key with %s gets 400 in the error shape', async (_name, headers) => {
    const response = await rawRequest(
      t.service.port,
      `GET /v1/minecraft/stream HTTP/1.1\r\nHost: a\r\nX-API-Key: ${KEY_A1}\r\n${headers}\r\n`,
    );
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(errorBody.parse(JSON.parse(response.body))).toMatchObject({ status: 400, success: false });
    expect(response.body).not.toContain(KEY_A1);
  });
});
