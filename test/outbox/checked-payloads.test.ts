import { afterEach, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { ExtensionSupport } from '../../src/api/extension-support.js';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import type { ChatLogBody } from '../../src/contract/chat-log-schemas.js';
import { type Db, openDb } from '../../src/db/open-db.js';
import { createOutbox, OutboxEnqueueError } from '../../src/outbox/index.js';
import type { Outbox } from '../../src/outbox/types.js';
import { FakeTime } from '../support/fake-time.js';
import { ack } from './helpers/outbox-harness.js';

const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const entry = (text: string) => ({
  playerUuid: PLAYER,
  playerName: 'Steve',
  kind: 'chat',
  text,
  at: '2026-11-28T10:00:00.000Z',
});

const nextTurn = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  for (let step = 0; step < 50; step += 1) await Promise.resolve();
};

const open: Array<{ db: Db; outbox: Outbox }> = [];
afterEach(async () => {
  for (const { db, outbox } of open.splice(0)) {
    await outbox.stop();
    db.close();
  }
});

/** The real outbox and client over SQLite; `bodies` holds each request body as it went on the wire. */
function setUp() {
  const time = new FakeTime();
  const db = openDb(':memory:');
  const bodies: string[] = [];
  const client = createModerationClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'test-key',
    clock: time,
    timers: time,
    gate: new RateLimitGate(),
    extensions: new ExtensionSupport({ reprobeAfterMs: 600_000 }),
    fetch: async (_url, init) => {
      bodies.push(String(init.body));
      const { entries } = JSON.parse(String(init.body)) as ChatLogBody;
      return new Response(JSON.stringify({ success: true, accepted: entries.length }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  const outbox = createOutbox({ db, client, clock: time, timers: time, random: () => 0.5 });
  open.push({ db, outbox });
  const rows = () =>
    db
      .prepare<[], { payload: string; status: string; dead_reason: string | null }>(
        'SELECT payload, status, dead_reason FROM outbox ORDER BY id',
      )
      .all();
  return { db, time, outbox, bodies, rows };
}

describe('a payload checked where it was built (payloadChecked)', () => {
  it('is stored without the schema check, only its shape; other operations cannot skip the check', () => {
    const { outbox, rows } = setUp();
    // 300 characters break the contract (256 at most): only zod would see it, and it is not run.
    const body = { batchId: 'b-1', entries: [entry('x'.repeat(300))] };
    expect(() =>
      outbox.enqueue({ operation: 'sendChatLog', payload: body as never }, { idempotencyKey: 'k0' }),
    ).toThrow(/sendChatLog payload: entries.0.text: must be at most 256 characters/);
    outbox.enqueue(
      { operation: 'sendChatLog', payload: body as never },
      { idempotencyKey: 'k1', payloadChecked: true },
    );
    expect(rows().map((row) => JSON.parse(row.payload))).toEqual([body]);

    const broken = { batchId: 'b-2', entries: [{ ...entry('hi'), kind: 'shout' }] };
    expect(() =>
      outbox.enqueue(
        { operation: 'sendChatLog', payload: broken as never },
        { idempotencyKey: 'k2', payloadChecked: true },
      ),
    ).toThrow(/sendChatLog payload: entries.0.kind: must be one of chat, command/);
    expect(() => outbox.enqueue(ack('p1'), { idempotencyKey: 'k3', payloadChecked: true })).toThrow(OutboxEnqueueError);
    expect(() => outbox.enqueue(ack('p1'), { idempotencyKey: 'k3', payloadChecked: true })).toThrow(
      /acknowledgePunishment payload: only checked by the outbox/,
    );
    expect(rows()).toHaveLength(1);
  });

  it('is sent as the stored JSON, byte for byte, not validated or serialised again', async () => {
    const { db, time, outbox, bodies, rows } = setUp();
    outbox.enqueue(
      { operation: 'sendChatLog', payload: { batchId: 'b-1', entries: [entry('hello')] } as never },
      { idempotencyKey: 'k1', payloadChecked: true },
    );
    // What a later version could have stored: the same body with its keys in another order.
    const stored = JSON.stringify({ entries: [entry('x'.repeat(300))], batchId: 'b-1' });
    db.prepare('UPDATE outbox SET payload = ?').run(stored);
    outbox.start();
    await time.advance(0);
    expect(bodies).toEqual([stored]);
    // Delivered chat batches are not kept: marking one sent would rewrite all of it.
    expect(rows()).toEqual([]);
  });

  it('read back from a corrupt file, goes dead with a message naming what is wrong', async () => {
    const { db, time, outbox, bodies, rows } = setUp();
    for (const key of ['k1', 'k2']) {
      outbox.enqueue(
        { operation: 'sendChatLog', payload: { batchId: key, entries: [entry('hello')] } as never },
        { idempotencyKey: key, payloadChecked: true },
      );
    }
    db.prepare('UPDATE outbox SET payload = \'{"batchId": "k1", "entr\' WHERE idempotency_key = \'k1\'').run();
    db.prepare(`UPDATE outbox SET payload = '{"batchId":"k2","entries":[]}' WHERE idempotency_key = 'k2'`).run();
    outbox.start();
    await time.advance(0);
    expect(bodies).toEqual([]);
    expect(rows().map((row) => [row.status, row.dead_reason])).toEqual([
      ['dead', expect.stringMatching(/^stored payload is not JSON/)],
      ['dead', 'stored payload no longer parses: sendChatLog payload: entries: must be an array of 1 to 500 entries'],
    ]);
  });

  it('starts large rows one per turn of the event loop, after the turn that claimed them', async () => {
    const { outbox, bodies } = setUp();
    for (const key of ['k1', 'k2', 'k3']) {
      const entries = Array.from({ length: 100 }, (_, index) => entry(`${key} line ${index} `.padEnd(120, 'x')));
      outbox.enqueue(
        { operation: 'sendChatLog', payload: { batchId: key, entries } as never },
        { idempotencyKey: key, payloadChecked: true },
      );
    }
    const sentBatches = () => bodies.map((body) => (JSON.parse(body) as ChatLogBody).batchId);
    outbox.start();
    for (let step = 0; step < 50; step += 1) await Promise.resolve();
    expect(sentBatches()).toEqual([]);
    await nextTurn();
    expect(sentBatches()).toEqual(['k1']);
    await nextTurn();
    expect(sentBatches()).toEqual(['k1', 'k2']);
    await nextTurn();
    expect(sentBatches()).toEqual(['k1', 'k2', 'k3']);
  });
});
