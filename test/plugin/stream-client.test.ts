import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createStreamClient, type StreamSocket } from '../../plugin/sync/stream-client.js';
import { memoryStreamPositionStore, type StreamPositionStore } from '../../plugin/sync/stream-position.js';
import type { StreamState } from '../../plugin/sync/sync-status.js';
import type { Punishment } from '../../src/contract/schemas.js';
import { clientDoors, recordingLogger, servicePunishment } from './helpers/fakes.js';

class FakeSocket extends EventEmitter {
  terminated = false;
  terminate() {
    this.terminated = true;
  }
  send(frame: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(frame)));
  }
}

function harness(random = 0.5, position: StreamPositionStore = memoryStreamPositionStore()) {
  const sockets: FakeSocket[] = [];
  const urls: string[] = [];
  let caughtUp = 0;
  const timers: Array<{ callback: () => void; delayMs: number; cleared: boolean }> = [];
  const states: StreamState[] = [];
  const snapshots: Punishment[][] = [];
  const pushed: Punishment[] = [];
  const { logger, lines } = recordingLogger();
  const doors = clientDoors();
  const client = createStreamClient({
    endpoint: () => ({ url: 'ws://127.0.0.1:1/v1/minecraft/stream', headers: { 'X-API-Key': 'secret-key' } }),
    onSnapshotPage: (list) => snapshots.push(list),
    onPunishment: (punishment) => pushed.push(punishment),
    onCaughtUp: () => {
      caughtUp += 1;
    },
    onStateChange: (state) => states.push(state),
    timers: {
      setTimeout: (callback, delayMs) => {
        const timer = { callback, delayMs, cleared: false };
        timers.push(timer);
        return timer;
      },
      clearTimeout: (handle) => {
        (handle as { cleared: boolean }).cleared = true;
      },
    },
    random: () => random,
    clock: { now: () => 0 },
    ...doors,
    logger,
    minDelayMs: 1000,
    maxDelayMs: 5000,
    position,
    connect: (url) => {
      urls.push(url);
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as StreamSocket;
    },
  });
  return { client, caughtUp: () => caughtUp, sockets, urls, timers, states, snapshots, pushed, lines, ...doors };
}

describe('stream client', () => {
  it('applies the snapshot and each pushed punishment, ignoring frames that break the contract', () => {
    const h = harness();
    h.client.start();
    const socket = h.sockets[0]!;
    socket.send({ type: 'hello', protocol: 1 });
    socket.send({ type: 'snapshot', punishments: [servicePunishment()] });
    socket.send({ type: 'punishment', punishment: servicePunishment({ id: 'p-2' }) });
    socket.send({ type: 'punishment', punishment: { id: 'broken' } });
    socket.emit('message', Buffer.from('not json'));

    expect(h.states).toEqual(['connecting', 'connected']);
    expect(h.snapshots.map((list) => list.map((p) => p.id))).toEqual([['p-1']]);
    expect(h.pushed.map((p) => p.id)).toEqual(['p-2']);
    expect(h.lines.filter((line) => line.level === 'warn')).toHaveLength(2);
  });

  it('reconnects with doubling, capped, jittered delays and resets them after a hello', () => {
    const h = harness(0.5);
    h.client.start();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      h.sockets.at(-1)!.emit('close');
      h.timers.at(-1)!.callback();
    }
    expect(h.timers.map((timer) => timer.delayMs)).toEqual([500, 1000, 2000, 2500]);
    h.sockets.at(-1)!.send({ type: 'hello', protocol: 1 });
    h.sockets.at(-1)!.emit('close');
    expect(h.timers.at(-1)!.delayMs).toBe(500);
    expect(h.states.at(-1)).toBe('disconnected');
  });

  it('a 404 upgrade means the service has no stream: remembered, and asked again only after the wait', () => {
    const h = harness();
    h.client.start();
    h.sockets[0]!.emit('unexpected-response', {}, { statusCode: 404 });
    h.sockets[0]!.emit('close');
    expect(h.client.state).toBe('unsupported');
    expect(h.extensions.state('stream')).toEqual({ state: 'missing', retryAt: 600_000 });
    expect(h.timers.map((timer) => timer.delayMs)).toEqual([600_000]);
    expect(JSON.stringify(h.lines)).not.toContain('secret-key');
  });

  it('a 429 to the upgrade closes the gate for every caller, and the next connection waits for it', () => {
    const h = harness(0);
    h.client.start();
    h.sockets[0]!.emit('unexpected-response', {}, { statusCode: 429, headers: { 'retry-after': '3' } });
    expect(h.gate.closure(0)).toEqual({ reason: 'rate-limited', endpoint: 'stream', untilMs: 3000 });
    expect(h.timers.map((timer) => timer.delayMs)).toEqual([3000]);
  });

  it('a 429 to the upgrade whose body comes late holds every caller from its status line until the body is read', async () => {
    const h = harness(0);
    h.client.start();
    const response = new EventEmitter() as EventEmitter & { statusCode: number; headers: Record<string, string> };
    response.statusCode = 429;
    response.headers = {};
    h.sockets[0]!.emit('unexpected-response', {}, response);
    expect(h.gate.closure(0)).toMatchObject({ reason: 'rate-limited', endpoint: 'stream' });
    let read = false;
    const waiting = h.gate.rateLimitsRead(0)?.then(() => {
      read = true;
    });
    await Promise.resolve();
    expect(read).toBe(false);
    response.emit('data', Buffer.from(JSON.stringify({ status: 429, message: 'slow down', retryAfterSeconds: 4 })));
    response.emit('end');
    await waiting;
    expect(read).toBe(true);
    expect(h.gate.closure(0)).toEqual({ reason: 'rate-limited', endpoint: 'stream', untilMs: 4000 });
    expect(h.timers.map((timer) => timer.delayMs)).toEqual([4000]);
  });

  it('a 429 to the upgrade whose answer ends without a body closes the gate for the default wait', () => {
    const h = harness(0);
    h.client.start();
    const response = new EventEmitter() as EventEmitter & { statusCode: number; headers: Record<string, string> };
    response.statusCode = 429;
    response.headers = {};
    h.sockets[0]!.emit('unexpected-response', {}, response);
    response.emit('close');
    expect(h.gate.closure(0)).toEqual({ reason: 'rate-limited', endpoint: 'stream', untilMs: 30_000 });
    expect(h.gate.rateLimitsRead(0)).toBeUndefined();
  });

  it('opens no connection while the gate is closed', () => {
    const h = harness();
    h.gate.rateLimited('recentPunishments', 0, 2500);
    h.client.start();
    expect(h.sockets).toEqual([]);
    expect(h.timers.map((timer) => timer.delayMs)).toEqual([2500]);
  });

  it('a 401 to the upgrade is a rejected key: the gate closes, the stream waits', () => {
    const h = harness(0);
    h.client.start();
    h.sockets[0]!.emit('unexpected-response', {}, { statusCode: 401 });
    expect(h.gate.isKeyRejected).toBe(true);
    expect(h.timers.map((timer) => timer.delayMs)).toEqual([5000]);
  });

  it('stop closes the socket and cancels a pending reconnection', () => {
    const h = harness();
    h.client.start();
    h.sockets[0]!.emit('close');
    h.client.stop();
    expect(h.timers[0]!.cleared).toBe(true);
    expect(h.client.state).toBe('disconnected');
  });

  it('asks for protocol 2 with the kept position, and keeps the sequence of each frame it applied', () => {
    const position = memoryStreamPositionStore();
    const h = harness(0.5, position);
    h.client.start();
    expect(new URL(h.urls[0]!).searchParams.toString()).toBe('protocol=2');
    const socket = h.sockets[0]!;
    socket.send({ type: 'hello', protocol: 2, epoch: 'e1', sequence: 7, resumed: false });
    socket.send({ type: 'snapshot', sequence: 7, page: 0, last: false, punishments: [servicePunishment()] });
    expect(position.load()).toBeUndefined();
    socket.send({
      type: 'snapshot',
      sequence: 7,
      page: 1,
      last: true,
      punishments: [servicePunishment({ id: 'p-9' })],
    });
    expect(position.load()).toEqual({ epoch: 'e1', sequence: 7 });
    socket.send({ type: 'caught-up', sequence: 8 });
    expect(position.load()).toEqual({ epoch: 'e1', sequence: 8 });
    expect(h.caughtUp()).toBe(1);
    socket.send({ type: 'punishment', sequence: 9, punishment: servicePunishment({ id: 'p-3' }) });
    expect(position.load()).toEqual({ epoch: 'e1', sequence: 9 });
    expect(h.snapshots.map((list) => list.map((p) => p.id))).toEqual([['p-1'], ['p-9']]);

    socket.emit('close');
    h.timers.at(-1)!.callback();
    const resumeQuery = new URL(h.urls[1]!).searchParams;
    expect(Object.fromEntries(resumeQuery)).toEqual({ protocol: '2', epoch: 'e1', after: '9' });
  });

  it('against a service of protocol 1 it applies frames as before and keeps no position', () => {
    const position = memoryStreamPositionStore();
    const h = harness(0.5, position);
    h.client.start();
    const socket = h.sockets[0]!;
    socket.send({ type: 'hello', protocol: 1 });
    socket.send({ type: 'snapshot', punishments: [servicePunishment()] });
    socket.send({ type: 'punishment', punishment: servicePunishment({ id: 'p-2' }) });
    expect(h.snapshots.map((list) => list.map((p) => p.id))).toEqual([['p-1']]);
    expect(h.pushed.map((p) => p.id)).toEqual(['p-2']);
    expect(position.load()).toBeUndefined();
  });

  it('a 409 to the upgrade (the cap of connections per key) is logged with the service message; the gate stays open', () => {
    const h = harness(0);
    h.client.start();
    const response = new EventEmitter() as EventEmitter & { statusCode: number };
    response.statusCode = 409;
    h.sockets[0]!.emit('unexpected-response', {}, response);
    response.emit('data', Buffer.from(JSON.stringify({ status: 409, message: 'stream connections: at most 3' })));
    response.emit('end');
    expect(h.lines).toContainEqual(
      expect.objectContaining({
        message: 'stream upgrade refused',
        fields: { status: 409, message: 'stream connections: at most 3' },
      }),
    );
    expect(h.gate.closure(0)).toBeUndefined();
    expect(h.timers).toHaveLength(1);
  });
});
