import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, KEY_A1, KEY_A2, NOTCH, testSeed } from './helpers/fixture.js';
import { type HeldSocket, holdSocket } from './helpers/held-socket.js';
import { closeAgents, requestFrom } from './helpers/http-from.js';
import { startPanelService } from './helpers/panel-service.js';
import { readUntil } from './helpers/read-until.js';
import { type ServiceProcess, startServiceProcess } from './helpers/service-process.js';
import { openStreamSession, type StreamSession } from './helpers/stream-session.js';

// Issue 32, item 1: slow requests are timed out, idle connections closed, connections per address
// capped; a stream past its handshake is left alone. Real `bailiff service` processes, raw sockets.

/** A bound on waiting for the service to act, far above the limits set here, far below node's old ones (60-90 s, never). */
const WAIT_MS = 8000;
const HEADERS_TIMEOUT_MS = 500;
const BODY_TIMEOUT_MS = 3000;
const KEEP_ALIVE_TIMEOUT_MS = 500;
const CONNECTIONS_PER_ADDRESS = 4;

const typesRequest = (apiKey = KEY_A1) =>
  `GET /v1/minecraft/punishments/types HTTP/1.1\r\nHost: bailiff\r\nX-API-Key: ${apiKey}\r\n\r\n`;
const announcedBody = (apiKey: string) =>
  `POST /v1/minecraft/punishments/create HTTP/1.1\r\nHost: bailiff\r\nX-API-Key: ${apiKey}\r\n` +
  'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{';

const directories: string[] = [];
const processes: ServiceProcess[] = [];
const held: HeldSocket[] = [];

async function serviceWith(args: string[]): Promise<{ url: string; port: number }> {
  const directory = mkdtempSync(join(tmpdir(), 'bailiff-connections-'));
  directories.push(directory);
  const service = await startServiceProcess({
    seed: testSeed(),
    adminToken: ADMIN_TOKEN,
    tmpDirectory: directory,
    args,
  });
  processes.push(service);
  return { url: service.url, port: Number(new URL(service.url).port) };
}

function hold(port: number, bytes?: string | Buffer, from?: string): HeldSocket {
  const socket = holdSocket(port, bytes, from);
  held.push(socket);
  return socket;
}

afterAll(async () => {
  for (const socket of held) socket.destroy();
  closeAgents();
  await Promise.all(processes.map((service) => service.kill()));
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('timeouts', () => {
  let service: { url: string; port: number };
  beforeAll(async () => {
    service = await serviceWith([
      '--headers-timeout-ms',
      String(HEADERS_TIMEOUT_MS),
      '--body-timeout-ms',
      String(BODY_TIMEOUT_MS),
      '--keep-alive-timeout-ms',
      String(KEEP_ALIVE_TIMEOUT_MS),
    ]);
  });

  it('a connection that sends nothing, or half its headers, is answered 408 naming the setting and closed', async () => {
    const silent = hold(service.port);
    const halfHeaders = hold(service.port, 'GET /v1/minecraft/punishments/types HTTP/1.1\r\nHost: bailiff\r\n');
    for (const socket of [silent, halfHeaders]) {
      const outcome = await socket.closed(WAIT_MS);
      expect(outcome.status).toBe(408);
      expect(outcome.message).toBe('headers: not received in time (service option headersTimeoutMs)');
    }
  });

  it('a body announced as 1000 bytes and never sent is answered 408 and closed', async () => {
    const outcome = await hold(service.port, announcedBody(KEY_A1)).closed(WAIT_MS);
    expect(outcome.status).toBe(408);
    expect(outcome.message).toBe('body: not received within 3 s of the headers (service option bodyTimeoutMs)');
  });

  it('a request refused before its body was read is closed when the body never comes', async () => {
    const socket = hold(service.port, announcedBody('a-wrong-key-0123456789abcdef'));
    expect((await socket.answered(WAIT_MS)).status).toBe(401);
    await socket.closed(WAIT_MS);
  });

  it('an idle kept-alive connection is closed after its answer, without another word', async () => {
    const socket = hold(service.port, typesRequest());
    const answer = await socket.answered(WAIT_MS);
    expect(answer.status).toBe(200);
    const outcome = await socket.closed(WAIT_MS);
    expect(outcome.raw).toBe(answer.raw);
  });

  it('a migration upload that keeps moving is served past the body timeout; one that drips is answered 408', async () => {
    const boundary = 'slow-upload';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="migrationFile"; filename="e.json"\r\n` +
      'Content-Type: application/json\r\n\r\n{"players": [';
    const tail = `]}\r\n--${boundary}--\r\n`;
    const upload = (bodyLength: number) =>
      `POST /v1/minecraft/migration/upload HTTP/1.1\r\nHost: bailiff\r\nX-API-Key: ${KEY_A1}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${bodyLength}\r\n\r\n${head}`;
    // 35 pieces of 8 KiB, one every 200 ms: over twice the body timeout, at about 40 KiB a second.
    const pieces = 35;
    const piece = ' '.repeat(8192);
    const moving = hold(service.port, upload(head.length + pieces * piece.length + tail.length));
    await moving.connected;
    const dripping = hold(service.port, upload(head.length + 10_000 + tail.length));
    await dripping.connected;
    for (let sent = 0; sent < pieces; sent += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      moving.socket.write(piece);
      if (!dripping.socket.destroyed) dripping.socket.write(' ');
    }
    moving.socket.write(tail);
    const served = await moving.answered(WAIT_MS);
    expect(served.status, served.raw).toBe(200);
    const refused = await dripping.closed(WAIT_MS);
    expect(refused.status).toBe(408);
    expect(refused.message).toMatch(
      /^body: the upload brought \d+ bytes in 3 s, below the 2048 bytes a second it must keep up \(service option bodyTimeoutMs\)$/,
    );
  });

  it('a stream past its handshake outlives every timeout and still receives what happens', async () => {
    const stream: StreamSession = openStreamSession(service.url, KEY_A1, '?protocol=2');
    await stream.opened;
    await stream.untilCaughtUp();
    // Each limit has struck another connection opened after the stream: the stream has lived through all three.
    const slowHeaders = hold(service.port, 'GET / HTTP/1.1\r\n');
    const slowBody = hold(service.port, announcedBody(KEY_A1));
    const idle = hold(service.port, typesRequest());
    for (const socket of [slowHeaders, slowBody, idle]) await socket.closed(WAIT_MS);
    const created = await requestFrom('127.0.0.9', `${service.url}/v1/minecraft/punishments/create`, {
      method: 'POST',
      headers: { 'x-api-key': KEY_A1, 'content-type': 'application/json' },
      body: JSON.stringify({ targetUuid: NOTCH, type_ordinal: 2, reason: 'still streaming' }),
    });
    expect(created.status).toBe(200);
    const frame = await stream.next(WAIT_MS);
    expect(frame).toMatchObject({ type: 'punishment', punishment: { reason: 'still streaming' } });
    stream.ws.terminate();
  });
});

describe('connections per address', () => {
  let service: { url: string; port: number };
  beforeAll(async () => {
    // Long timeouts: the connections held here stay open until the test closes them.
    service = await serviceWith([
      '--connections-per-address',
      String(CONNECTIONS_PER_ADDRESS),
      '--keep-alive-timeout-ms',
      '60000',
      '--headers-timeout-ms',
      '60000',
    ]);
  });

  /** `count` kept-alive connections from `from`, each served once. */
  async function servedConnections(count: number, from: string): Promise<HeldSocket[]> {
    const sockets = Array.from({ length: count }, () => hold(service.port, typesRequest(), from));
    for (const socket of sockets) expect((await socket.answered(WAIT_MS)).status).toBe(200);
    return sockets;
  }

  it('past the cap a connection is answered 429 and closed; another address is served meanwhile; a closed one frees its place', async () => {
    const from = '127.0.0.2';
    const sockets = await servedConnections(CONNECTIONS_PER_ADDRESS, from);
    const refused = hold(service.port, typesRequest(), from);
    const outcome = await refused.closed(WAIT_MS);
    expect(outcome.status).toBe(429);
    expect(outcome.message).toBe(
      'connections: this address already holds 4 open connections, the most allowed (service option connectionsPerAddress); close one first',
    );
    expect(outcome.raw).toMatch(/\r\nRetry-After: 1\r\n/);
    const elsewhere = await requestFrom('127.0.0.3', `${service.url}/v1/minecraft/punishments/types`, {
      headers: { 'x-api-key': KEY_A2 },
    });
    expect(elsewhere.status).toBe(200);

    sockets[0]!.destroy();
    // The service notices the close on its own time: try until a new connection is let in.
    const deadline = Date.now() + WAIT_MS;
    let status: number | undefined;
    while (status !== 200 && Date.now() < deadline) {
      status = (await hold(service.port, typesRequest(), from).answered(WAIT_MS)).status;
    }
    expect(status).toBe(200);
    for (const socket of sockets) socket.destroy();
  });

  it('streams past their handshake do not count: game servers behind one address keep their HTTP connections', async () => {
    const from = '127.0.0.4';
    // Three streams (the key's cap) from the address, then as many HTTP connections as the address may hold.
    const streams = Array.from({ length: 3 }, () => openStreamSession(service.url, KEY_A1, '?protocol=2', { from }));
    for (const stream of streams) await stream.opened;
    const sockets = await servedConnections(CONNECTIONS_PER_ADDRESS, from);
    expect((await hold(service.port, typesRequest(), from).closed(WAIT_MS)).status).toBe(429);
    for (const socket of sockets) socket.destroy();
    for (const stream of streams) stream.ws.terminate();
  });
});

describe('the panel live feed', () => {
  it("a staff member's open /panel/live outlives the header, body and keep-alive timeouts and still receives what happens", async () => {
    const panel = await startPanelService({
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: BODY_TIMEOUT_MS,
      keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
    });
    try {
      await panel.addAccount('watcher', 'alpha', 'viewer');
      const staff = await panel.loggedIn('watcher');
      const live = await fetch(`${panel.service.url}/panel/live`, {
        headers: { cookie: `bailiff_panel=${staff.cookie('bailiff_panel')}` },
      });
      expect(live.status).toBe(200);
      const reader = live.body!.getReader();
      try {
        await readUntil(reader, 'retry:', WAIT_MS);
        const port = panel.service.port;
        const others = [
          hold(port, 'GET / HTTP/1.1\r\n'),
          hold(port, announcedBody(KEY_A1)),
          hold(port, typesRequest()),
        ];
        for (const socket of others) await socket.closed(WAIT_MS);
        const created = await panel.call('POST', '/punishments/create', {
          targetUuid: NOTCH,
          type_ordinal: 2,
          reason: 'seen live',
        });
        expect(created.status).toBe(200);
        expect(await readUntil(reader, 'seen live', WAIT_MS)).toContain('event: punishment');
      } finally {
        await reader.cancel();
      }
    } finally {
      await panel.close();
    }
  });
});
