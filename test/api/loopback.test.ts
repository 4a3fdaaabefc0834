import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { FakeTime } from '../support/fake-time.js';
import { PLAYER_UUID } from './helpers/endpoint-cases.js';
import { expectApiError, SECRET_KEY } from './helpers/key-leak.js';
import { type Handler, type LoopbackServer, sendJson, startLoopbackServer } from './helpers/loopback-server.js';

const workDir = mkdtempSync(join(tmpdir(), 'bailiff-api-loopback-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler, timers?: FakeTime): Promise<{ api: ModerationApi; server: LoopbackServer }> {
  server = await startLoopbackServer(handler);
  return { api: createModerationClient({ baseUrl: `${server.baseUrl}/`, apiKey: SECRET_KEY, timers }), server };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('against a real HTTP server on 127.0.0.1', () => {
  it('uploads a migration file as multipart field migrationFile with every byte intact', async () => {
    // A few MB with every byte value, so a text re-encoding or a truncation would show.
    const contents = Buffer.concat([
      Buffer.from('{"players":[],"pad":"'),
      randomBytes(3 * 1024 * 1024),
      Buffer.from('"}'),
    ]);
    const filePath = join(workDir, 'export.json');
    writeFileSync(filePath, contents);
    const { api, server } = await serve(async (request, response) => {
      const form = await new Response(request.body, {
        headers: { 'content-type': request.headers['content-type'] ?? '' },
      }).formData();
      const file = form.get('migrationFile') as File;
      const bytes = new Uint8Array(await file.arrayBuffer());
      sendJson(response, 200, {
        success: true,
        message: `sha256 ${sha256(bytes)}`,
        fileSize: bytes.length,
        name: file.name,
      });
    });

    const result = await api.uploadMigration({ filePath });

    expect(result).toEqual({
      success: true,
      message: `sha256 ${sha256(contents)}`,
      fileSize: contents.length,
      name: 'export.json',
    });
    const request = server.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/minecraft/migration/upload');
    expect(request.headers['x-api-key']).toBe(SECRET_KEY);
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('round-trips JSON: body and headers arrive as sent, the answer is parsed', async () => {
    const { api, server } = await serve((request, response) => {
      const body = JSON.parse(request.body.toString('utf8'));
      sendJson(response, 200, { punishmentId: 'p-42', message: `created for ${body.targetUuid}`, echo: body });
    });
    const sent = { targetUuid: PLAYER_UUID, typeOrdinal: 14, issuerName: 'Mod', reason: 'Fly hacks ✈', duration: -1 };

    const result = await api.createPunishmentDynamic(sent);

    expect(result).toEqual({ punishmentId: 'p-42', message: `created for ${PLAYER_UUID}`, echo: sent });
    const request = server.received[0]!;
    expect(request.url).toBe('/v1/minecraft/punishments/dynamic');
    expect(request.headers).toMatchObject({ 'x-api-key': SECRET_KEY, 'content-type': 'application/json' });
  });

  it('reads a real 429 with its Retry-After header', async () => {
    const { api } = await serve((_, response) =>
      sendJson(response, 429, { status: 429, success: false, message: 'Rate limit exceeded' }, { 'Retry-After': '2' }),
    );
    const error = await expectApiError(api.getTicket({ id: 't-1' }), 'rate_limited');
    expect(error.retryAfterMs).toBe(2000);
    expect(error.message).toBe('getTicket: HTTP 429 Too Many Requests: Rate limit exceeded (retry after 2000 ms)');
  });

  it('times out a real request that gets no answer when the injected timer fires', async () => {
    const timers = new FakeTime();
    let requestArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      requestArrived = resolve;
    });
    const { api } = await serve(() => requestArrived(), timers);

    const call = api.recentPunishments();
    await arrived;
    timers.fireAll();

    await expectApiError(call, 'timeout');
  });

  it('refuses to follow a redirect, which would carry the key elsewhere', async () => {
    const { api, server } = await serve((_, response) => {
      response.writeHead(302, { Location: '/v1/minecraft/punishments/types?moved=1' }).end();
    });
    const error = await expectApiError(api.punishmentTypes(), 'network');
    expect(error.message).toMatch(/^punishmentTypes: network error: fetch failed/);
    expect(server.received).toHaveLength(1);
  });

  it('reports a refused connection as network, with the cause chained and no key anywhere', async () => {
    const closed = await startLoopbackServer(() => {});
    await closed.close();
    const api = createModerationClient({ baseUrl: closed.baseUrl, apiKey: SECRET_KEY });

    const error = await expectApiError(api.punishmentTypes(), 'network');

    expect(error.message).toMatch(/^punishmentTypes: network error: fetch failed/);
    expect(error.message).toContain('ECONNREFUSED');
    expect((error.cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });
});
