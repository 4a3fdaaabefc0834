import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import type { ServiceContext } from '../../src/service/context.js';
import type { LoggedChange, StreamHead } from '../../src/service/store/ports/stream-changes.js';
import type { SharedSnapshots } from '../../src/service/stream/shared-snapshots.js';
import { type LiveChange, StreamConnection } from '../../src/service/stream/stream-connection.js';
import type { StreamSettings } from '../../src/service/stream/stream-settings.js';
import { StreamWorkQueue } from '../../src/service/stream/stream-work-queue.js';
import { settle } from '../support/fake-time.js';

const SETTINGS: StreamSettings = {
  platform: 'minecraft',
  pingIntervalMs: 25_000,
  maxFrameBytes: 65_536,
  connectionsPerKey: 3,
  retainedChanges: 100,
  pageSize: 2,
  highWaterBytes: 1000,
  maxBufferedBytes: 4000,
  stallTimeoutMs: 500,
  snapshotReuseMs: 0,
};

class FakeSocket {
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  closed: { code: number; reason: string } | undefined;
  send(data: string | Buffer, optionsOrCallback?: unknown, callback?: () => void) {
    this.sent.push(String(data));
    const done = typeof optionsOrCallback === 'function' ? optionsOrCallback : callback;
    (done as (() => void) | undefined)?.();
  }
  close(code: number, reason: string) {
    this.closed = { code, reason };
    this.readyState = 2;
  }
  terminate() {}
}

/** A log of `count` changes (sequence n changes punishment `p{n}`) behind a fake context. */
function harness(count: number) {
  const log: LoggedChange[] = Array.from(
    { length: count },
    (_, index) => ({ id: `p${index + 1}`, sequence: index + 1 }) as unknown as LoggedChange,
  );
  const head = async (): Promise<StreamHead> => ({ epoch: 'e', sequence: log.length, prunedThrough: 0 });
  let afterRead = () => {};
  const context = {
    stores: {
      streamChanges: {
        head,
        changesAfter: async (_networkId: number, after: number, limit: number) => {
          const page = log.filter((change) => change.sequence > after).slice(0, limit);
          afterRead();
          return page;
        },
      },
    },
    render: { one: (row: LoggedChange) => ({ id: row.id }) },
  } as unknown as ServiceContext;
  const ws = new FakeSocket();
  const closures: number[] = [];
  const turns: (() => void)[] = [];
  const work = new StreamWorkQueue({
    sliceMs: 1000,
    now: () => 0,
    schedule: (turn) => turns.push(turn),
    onStepError: (error) => {
      throw error;
    },
  });
  /** Runs the work queue's turns, letting each step's reads settle, until no step is waiting; returns how many ran. */
  const runTurns = async () => {
    let ran = 0;
    for (let round = 0; round < 100; round += 1) {
      await settle(1);
      const turn = turns.shift();
      if (!turn) return ran;
      turn();
      ran += 1;
    }
    return ran;
  };
  const connection = new StreamConnection(
    ws as unknown as WebSocket,
    1,
    2,
    context,
    {} as SharedSnapshots,
    SETTINGS,
    work,
    { onClosedForCause: (code) => closures.push(code) },
  );
  const live = (sequence: number): LiveChange => {
    log.push({ id: `p${sequence}`, sequence } as unknown as LoggedChange);
    const frame = Buffer.from(JSON.stringify({ type: 'punishment', sequence, punishment: { id: `p${sequence}` } }));
    return { sequence, frames: { 1: frame, 2: frame } };
  };
  const frames = () => ws.sent.map((text) => JSON.parse(text) as { type: string; sequence: number });
  // Runs after each page is read, before the connection sees it (as a commit between two awaits would).
  const onRead = (action: () => void) => {
    afterRead = action;
  };
  return { ws, connection, closures, live, frames, onRead, runTurns };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a stream connection', () => {
  it('catches up from its position page by page, then takes live changes in order', async () => {
    const h = harness(5);
    h.connection.startAfter(1);
    expect(h.frames()).toEqual([]);
    // A page of pageSize (2) per turn: 2-3, 4-5, then the short read that ends the catch-up.
    expect(await h.runTurns()).toBe(3);
    expect(h.frames().map((frame) => [frame.type, frame.sequence])).toEqual([
      ['punishment', 2],
      ['punishment', 3],
      ['punishment', 4],
      ['punishment', 5],
      ['caught-up', 5],
    ]);
    h.connection.deliver(h.live(6));
    h.connection.deliver({ ...h.live(7), sequence: 5 });
    expect(
      h
        .frames()
        .slice(5)
        .map((frame) => frame.sequence),
    ).toEqual([6]);
  });

  it('reads the log again when a live change skips sequences nobody published', async () => {
    const h = harness(2);
    h.connection.startAfter(2);
    await h.runTurns();
    h.live(3);
    h.connection.deliver(h.live(4));
    await h.runTurns();
    expect(h.frames().map((frame) => [frame.type, frame.sequence])).toEqual([
      ['caught-up', 2],
      ['punishment', 3],
      ['punishment', 4],
      ['caught-up', 4],
    ]);
  });

  it('reads the log once more when a change is announced while its last page is read', async () => {
    const h = harness(1);
    let isFirstRead = true;
    h.onRead(() => {
      if (!isFirstRead) return;
      isFirstRead = false;
      h.connection.deliver(h.live(2));
    });
    h.connection.startAfter(0);
    await h.runTurns();
    expect(h.frames().map((frame) => [frame.type, frame.sequence])).toEqual([
      ['punishment', 1],
      ['punishment', 2],
      ['caught-up', 2],
    ]);
  });

  it('closes a caught-up connection whose reader lets more than maxBufferedBytes wait', async () => {
    const h = harness(0);
    h.connection.startAfter(0);
    await h.runTurns();
    h.ws.bufferedAmount = 5000;
    h.connection.deliver(h.live(1));
    expect(h.closures).toEqual([1008]);
    expect(h.ws.closed?.reason).toContain('too slow');
  });

  it('waits for a reader with nothing queued; closes one whose queue does not move for stallTimeoutMs', () => {
    vi.useFakeTimers();
    const h = harness(10);
    h.ws.bufferedAmount = 2000;
    h.connection.startAfter(0);
    expect(h.frames()).toEqual([]);
    h.ws.bufferedAmount = 0;
    vi.advanceTimersByTime(SETTINGS.stallTimeoutMs * 3);
    expect(h.closures).toEqual([]);
    h.ws.bufferedAmount = 2000;
    vi.advanceTimersByTime(SETTINGS.stallTimeoutMs);
    expect(h.closures).toEqual([1008]);
  });
});
