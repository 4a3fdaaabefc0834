import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDb } from '../../src/db/open-db.js';
import { KEY_A1, NOTCH, testSeed } from './helpers/fixture.js';
import { type ServiceCliProcess, startServiceCli } from './helpers/service-cli.js';
import { within } from './helpers/within.js';

/** How long each step may take (a bound, not a timing). */
const WAIT_MS = 15_000;
const dir = mkdtempSync(join(tmpdir(), 'bailiff-drain-'));
const started: ServiceCliProcess[] = [];
afterAll(async () => {
  for (const service of started) await service.kill();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A creation whose headers reached the service (it answered `100 Continue`, which it does only once
 * it took the request) while its body is still to come: a request in flight for as long as the test wants.
 */
async function requestInFlight(url: string, body: string) {
  const target = new URL(`${url}/v1/minecraft/punishments/dynamic`);
  const request = httpRequest({
    host: target.hostname,
    port: target.port,
    path: target.pathname,
    method: 'POST',
    headers: {
      'x-api-key': KEY_A1,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const answered = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    request.once('response', (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode!, connection: response.headers.connection, text }),
      );
    });
    request.once('error', reject);
  });
  request.flushHeaders();
  await within(new Promise<void>((resolve) => request.once('continue', () => resolve())), WAIT_MS, '100 Continue');
  return { finish: () => request.end(body), answered };
}

describe('SIGTERM drains a real service process', () => {
  it('turns /readyz to 503, closes streams with 1001 and refuses new ones, answers the request in flight, then exits 0', async () => {
    const seedPath = join(dir, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(testSeed()));
    const dbPath = join(dir, 'service.db');
    const service = await startServiceCli(['--port', '0', '--seed', seedPath, '--db', dbPath]);
    started.push(service);
    const streamUrl = `${service.url.replace('http', 'ws')}/v1/minecraft/stream?protocol=2`;
    const stream = new WebSocket(streamUrl, { headers: { 'x-api-key': KEY_A1 } });
    const streamClosed = new Promise<{ code: number; reason: string }>((resolve) =>
      stream.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await within(new Promise((resolve) => stream.once('message', resolve)), WAIT_MS, 'the stream hello');
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);

    const body = JSON.stringify({
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: 'mod',
      reason: 'sent while draining',
    });
    const creation = await requestInFlight(service.url, body);
    service.signal('SIGTERM');

    expect(await within(streamClosed, WAIT_MS, 'the stream to close')).toEqual({
      code: 1001,
      reason: 'this instance is shutting down',
    });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 503,
      success: false,
      message: 'not ready: the instance is shutting down',
      database: 'reachable',
      draining: true,
    });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const refused = await within(
      new Promise<number>((resolve, reject) => {
        const late = new WebSocket(streamUrl, { headers: { 'x-api-key': KEY_A1 } });
        late.on('error', () => {});
        late.once('unexpected-response', (_request, response) => {
          resolve(response.statusCode!);
          late.terminate();
        });
        late.once('open', () => reject(new Error('a stream opened while draining')));
      }),
      WAIT_MS,
      'the refusal of a new stream',
    );
    expect(refused).toBe(503);
    expect(service.stdout()).not.toContain('exited');

    creation.finish();
    const answer = await within(creation.answered, WAIT_MS, 'the answer to the request in flight');
    expect(answer.status).toBe(200);
    expect(answer.connection).toBe('close');
    const { punishmentId } = JSON.parse(answer.text) as { punishmentId: string };
    expect(await within(service.exited, WAIT_MS, 'the process to exit')).toBe(0);

    const db = openDb(dbPath, { readonly: true });
    try {
      const row = db.prepare('SELECT reason FROM service_punishments WHERE id = ?').get(punishmentId);
      expect(row).toEqual({ reason: 'sent while draining' });
    } finally {
      db.close();
    }
  });
});
