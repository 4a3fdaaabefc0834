import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import type { StreamSocket } from '../../plugin/sync/stream-client.js';
import { createSync } from '../../plugin/sync/sync-service.js';
import type { Punishment } from '../../src/contract/schemas.js';
import type { Scheduler } from '../../src/runtime/plugin-api.js';
import { FakeTime } from '../support/fake-time.js';
import { clientDoors, recordingLogger, servicePunishment } from './helpers/fakes.js';

class FakeSocket extends EventEmitter {
  terminate() {}
  send(frame: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(frame)));
  }
}

function harness(stream: 'auto' | 'off') {
  const repeating: Array<{ task: () => void | Promise<void>; periodMs: number; initialDelayMs?: number }> = [];
  const scheduler: Scheduler = {
    runLater: () => ({ cancel() {} }),
    repeat: (task, periodMs, initialDelayMs) => {
      repeating.push({ task, periodMs, initialDelayMs });
      return { cancel() {} };
    },
  };
  const applied: string[] = [];
  const lifted: string[][] = [];
  const sockets: FakeSocket[] = [];
  let polls = 0;
  const clock = new FakeTime();
  const sync = createSync({
    client: {
      recentPunishments: async () => {
        polls += 1;
        return { punishments: [servicePunishment({ id: `polled-${polls}` })] };
      },
      streamEndpoint: () => ({ url: 'ws://127.0.0.1:1/stream', headers: {} }),
      ...clientDoors(),
    },
    scheduler,
    sync: bailiffConfigSchema.parse({ sync: { stream, pollIntervalMs: 500 } }).sync,
    apply: (punishment: Punishment) => {
      applied.push(punishment.id);
      return 'new';
    },
    liftMissing: (activeIds) => {
      lifted.push([...activeIds].sort());
      return 0;
    },
    clock,
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    random: () => 0,
    logger: recordingLogger().logger,
    connect: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as StreamSocket;
    },
  });
  return { sync, repeating, applied, lifted, sockets, polls: () => polls, clock };
}

describe('sync', () => {
  it('with the stream off, polls every pollIntervalMs starting at once', async () => {
    const h = harness('off');
    h.sync.start();
    expect(h.sockets).toHaveLength(0);
    expect(h.repeating).toEqual([expect.objectContaining({ periodMs: 500, initialDelayMs: 0 })]);
    await h.repeating[0]!.task();
    await h.repeating[0]!.task();
    expect(h.applied).toEqual(['polled-1', 'polled-2']);
    expect(h.sync.status).toMatchObject({ streamState: 'disabled', lastSyncAt: h.clock.now() });
  });

  it('applies the stream snapshot and pushes, and skips polls while it is connected', async () => {
    const h = harness('auto');
    h.sync.start();
    const socket = h.sockets[0]!;
    socket.send({ type: 'hello', protocol: 1 });
    socket.send({ type: 'snapshot', punishments: [servicePunishment({ id: 'snap' })] });
    socket.send({ type: 'punishment', punishment: servicePunishment({ id: 'pushed' }) });
    await h.repeating[0]!.task();
    expect(h.polls()).toBe(0);
    expect(h.applied).toEqual(['snap', 'pushed']);
    expect(h.sync.status.streamState).toBe('connected');

    socket.emit('close');
    await h.repeating[0]!.task();
    expect(h.polls()).toBe(1);
  });

  it('syncNow polls once and reports how many punishments it applied', async () => {
    const h = harness('off');
    expect(await h.sync.syncNow()).toEqual({ applied: 1 });
  });

  it('applies a paged snapshot page by page and lifts what it does not list only after its last page', () => {
    const h = harness('auto');
    h.sync.start();
    const socket = h.sockets[0]!;
    socket.send({ type: 'hello', protocol: 2, epoch: 'e1', sequence: 4, resumed: false });
    socket.send({ type: 'snapshot', sequence: 4, page: 0, last: false, punishments: [servicePunishment({ id: 'a' })] });
    expect(h.applied).toEqual(['a']);
    expect(h.lifted).toEqual([]);
    socket.send({ type: 'snapshot', sequence: 4, page: 1, last: true, punishments: [servicePunishment({ id: 'b' })] });
    expect(h.applied).toEqual(['a', 'b']);
    expect(h.lifted).toEqual([['a', 'b']]);
  });
});
