import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatLog } from '../../../plugin/chat-log/chat-log.js';
import { sqliteExtensionStore } from '../../../plugin/connection/extension-store.js';
import { createModerationClient } from '../../../src/api/client.js';
import { ExtensionSupport } from '../../../src/api/extension-support.js';
import { RateLimitGate } from '../../../src/api/rate-limit-gate.js';
import type { ChatLogBody } from '../../../src/contract/chat-log-schemas.js';
import { type Db, openDb } from '../../../src/db/open-db.js';
import { createOperationShare } from '../../../src/outbox/operation-share.js';
import { createOutbox } from '../../../src/outbox/outbox.js';
import type { Outbox } from '../../../src/outbox/types.js';
import { tempDir } from '../../runtime/helpers/temp-dir.js';
import { FakeTime } from '../../support/fake-time.js';
import { recordingLogger } from '../../support/recording-logger.js';

const NOW = Date.parse('2026-11-28T10:00:00.000Z');
const ALICE = { uuid: '11111111-1111-4111-8111-111111111111', name: 'Alice' };
const BOB = { uuid: '22222222-2222-4222-8222-222222222222', name: 'Bob' };

type Answer = (body: ChatLogBody) => Response | Promise<Response>;
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const accepted: Answer = (body) => json(200, { success: true, accepted: body.entries.length });
const notFound: Answer = () => json(404, { success: false, message: 'Route POST:/v1/minecraft/chat-log not found' });

interface Setup {
  db: Db;
  time: FakeTime;
  log: ChatLog;
  outbox: Outbox;
  extensions: ExtensionSupport;
  /** Bodies the service received, in order. */
  received: ChatLogBody[];
  /** Flushes the chat log asked to run soon (a full buffer), not yet run. */
  soon: Array<() => void>;
  logged: ReturnType<typeof recordingLogger>;
  rows(): { operation: string; status: string; payload: string }[];
}

const folders: Array<ReturnType<typeof tempDir>> = [];
const open: Setup[] = [];
afterEach(async () => {
  for (const setup of open.splice(0)) {
    await setup.outbox.stop();
    if (setup.db.open) setup.db.close();
  }
  for (const folder of folders.splice(0)) folder.remove();
});

function databaseFile(): string {
  const folder = tempDir('bailiff-chat-log-');
  folders.push(folder);
  return join(folder.path, 'bailiff.db');
}

/** The chat log over a real SQLite file, the real outbox and the real client; only `fetch` is the test's. */
function setUp(
  file: string,
  answer: Answer,
  options: { batchPrefix?: string; maxOutboxBatches?: number; time?: FakeTime } = {},
): Setup {
  const time = options.time ?? new FakeTime(NOW);
  const db = openDb(file);
  const received: ChatLogBody[] = [];
  const logged = recordingLogger();
  const extensions = new ExtensionSupport({ reprobeAfterMs: 600_000, store: sqliteExtensionStore(db) });
  const client = createModerationClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'test-key',
    clock: time,
    timers: time,
    gate: new RateLimitGate(),
    extensions,
    fetch: async (_url, init) => {
      const body = JSON.parse(String(init.body)) as ChatLogBody;
      received.push(body);
      return answer(body);
    },
  });
  const outbox = createOutbox({
    db,
    client,
    clock: time,
    timers: time,
    random: () => 1,
    logger: logged.logger,
    settings: { baseDelayMs: 1000, maxDelayMs: 1000 },
  });
  const soon: Array<() => void> = [];
  let batches = 0;
  const log = new ChatLog({
    db,
    outbox,
    share: createOperationShare(db, 'sendChatLog'),
    extensions,
    maxOutboxBatches: () => options.maxOutboxBatches ?? 200,
    clock: time,
    ids: () => `${options.batchPrefix ?? 'batch'}-${++batches}`,
    logger: logged.logger,
    soon: (task) => soon.push(task),
  });
  const rows = () =>
    db
      .prepare<[], { operation: string; status: string; payload: string }>(
        'SELECT operation, status, payload FROM outbox ORDER BY id',
      )
      .all();
  const setup = { db, time, log, outbox, extensions, received, soon, logged, rows };
  open.push(setup);
  return setup;
}

const linesOf = (body: ChatLogBody) => body.entries.map((entry) => `${entry.playerName} ${entry.kind} ${entry.text}`);

describe('the chat log', () => {
  it('keeps captured lines in memory and writes them to the outbox as one batch at the flush', async () => {
    const { log, outbox, rows, received, time } = setUp(':memory:', accepted);
    log.capture(ALICE, 'chat', 'hello there');
    await time.advance(1500);
    log.capture(BOB, 'command', '/spawn');
    expect(rows()).toEqual([]);

    expect(log.flush()).toEqual({ batches: 1, lines: 2, notOffered: 0, refused: 0 });
    expect(rows()).toHaveLength(1);
    outbox.start();
    await time.advance(0);

    expect(received).toHaveLength(1);
    expect(received[0]).toEqual({
      batchId: 'batch-1',
      entries: [
        {
          playerUuid: ALICE.uuid,
          playerName: 'Alice',
          kind: 'chat',
          text: 'hello there',
          at: '2026-11-28T10:00:00.000Z',
        },
        { playerUuid: BOB.uuid, playerName: 'Bob', kind: 'command', text: '/spawn', at: '2026-11-28T10:00:01.500Z' },
      ],
    });
    expect(log.flush()).toEqual({ batches: 0, lines: 0, notOffered: 0, refused: 0 });
  });

  it('asks for a flush when 100 lines wait, outside the capture, and writes one batch of at most 100 per turn', () => {
    const { log, rows, soon } = setUp(':memory:', accepted);
    const sizes = () => rows().map((row) => (JSON.parse(row.payload) as ChatLogBody).entries.length);
    for (let index = 0; index < 99; index += 1) log.capture(ALICE, 'chat', `line ${index}`);
    expect(soon).toHaveLength(0);
    log.capture(ALICE, 'chat', 'line 99');
    for (let index = 100; index < 250; index += 1) log.capture(ALICE, 'chat', `line ${index}`);
    expect(soon).toHaveLength(1);
    expect(rows()).toEqual([]);

    soon.shift()!();
    expect(sizes()).toEqual([100]);
    expect(soon).toHaveLength(1);
    soon.shift()!();
    expect(sizes()).toEqual([100, 100]);
    soon.shift()!();
    expect(sizes()).toEqual([100, 100, 50]);
    expect(soon).toHaveLength(0);
    expect(log.buffered).toBe(0);

    // The timed flush too writes one batch and leaves the rest to a later turn (the one already asked for).
    for (let index = 0; index < 120; index += 1) log.capture(BOB, 'chat', `more ${index}`);
    expect(log.flush()).toEqual({ batches: 1, lines: 100, notOffered: 0, refused: 0 });
    expect(log.buffered).toBe(20);
    expect(soon).toHaveLength(1);
    soon.shift()!();
    expect(sizes()).toEqual([100, 100, 50, 100, 20]);
    const texts = rows().flatMap((row) => (JSON.parse(row.payload) as ChatLogBody).entries.map((entry) => entry.text));
    expect(texts.slice(-21, -19)).toEqual(['more 99', 'more 100']);
  });

  it('writes every batch at once when it closes (the plugin is stopping)', () => {
    const { log, rows, soon } = setUp(':memory:', accepted);
    for (let index = 0; index < 230; index += 1) log.capture(ALICE, 'chat', `line ${index}`);
    expect(log.close()).toEqual({ batches: 3, lines: 230, notOffered: 0, refused: 0 });
    expect(rows().map((row) => (JSON.parse(row.payload) as ChatLogBody).entries.length)).toEqual([100, 100, 30]);
    for (const task of soon) task();
    expect(rows()).toHaveLength(3);
  });

  it('leaves out a line that breaks the contract (a malformed UUID, an empty name), counted and logged', () => {
    const { log, rows, logged } = setUp(':memory:', accepted);
    log.capture({ uuid: 'not-a-uuid', name: 'Mallory' }, 'chat', 'from a broken host');
    log.capture(ALICE, 'chat', 'fine');
    log.capture({ uuid: BOB.uuid, name: '' }, 'chat', 'no name');
    expect(log.flush()).toEqual({ batches: 1, lines: 1, notOffered: 0, refused: 2 });
    expect(rows().map((row) => (JSON.parse(row.payload) as ChatLogBody).entries.map((entry) => entry.text))).toEqual([
      ['fine'],
    ]);
    log.capture({ uuid: 'not-a-uuid', name: 'Mallory' }, 'chat', 'alone');
    expect(log.flush()).toEqual({ batches: 0, lines: 0, notOffered: 0, refused: 1 });
    expect(rows()).toHaveLength(1);
    expect(
      logged.lines.filter((line) => line.message.includes('break the contract')).map((line) => line.fields),
    ).toEqual([{ lines: 2 }, { lines: 1 }]);
  });

  it('cuts a text to 256 characters and a name to 16, and skips an empty line', () => {
    const { log, rows } = setUp(':memory:', accepted);
    log.capture({ uuid: ALICE.uuid, name: 'A_very_long_bedrock_name' }, 'chat', 'x'.repeat(300));
    log.capture(ALICE, 'chat', '');
    log.flush();
    const [entry] = (JSON.parse(rows()[0]!.payload) as ChatLogBody).entries;
    expect(entry!.text).toHaveLength(256);
    expect(entry!.playerName).toBe('A_very_long_bedr');
    expect((JSON.parse(rows()[0]!.payload) as ChatLogBody).entries).toHaveLength(1);
  });

  it('retries a batch after a 503 and a network failure with the same batch id, and removes it once delivered', async () => {
    const answers: Answer[] = [
      () => json(503, { success: false, message: 'try later' }),
      () => Promise.reject(new TypeError('fetch failed')),
      accepted,
    ];
    const { log, outbox, rows, received, time } = setUp(':memory:', (body) => answers.shift()!(body));
    log.capture(ALICE, 'chat', 'a line');
    log.flush();
    outbox.start();
    await time.advance(0);
    await time.advance(1000);
    await time.advance(1000);
    expect(received.map((body) => body.batchId)).toEqual(['batch-1', 'batch-1', 'batch-1']);
    expect(rows()).toEqual([]);

    log.capture(ALICE, 'chat', 'next line');
    log.flush();
    expect(rows().map((row) => row.status)).toEqual(['pending']);
  });

  it("waits out the service's 429 window before any batch goes again", async () => {
    let first = true;
    const { log, outbox, received, time } = setUp(':memory:', (body) => {
      if (first) {
        first = false;
        return json(429, { success: false, message: 'slow down' }, { 'retry-after': '5' });
      }
      return accepted(body);
    });
    log.capture(ALICE, 'chat', 'first');
    log.flush();
    outbox.start();
    await time.advance(0);
    log.capture(BOB, 'chat', 'second');
    log.flush();
    await time.advance(4000);
    expect(received.map((body) => body.batchId)).toEqual(['batch-1']);

    await time.advance(1500);
    expect(received.map((body) => body.batchId).sort()).toEqual(['batch-1', 'batch-1', 'batch-2']);
  });

  it('against a service without the route: marks the extension missing, then sends and keeps nothing', async () => {
    const { log, outbox, rows, received, time, extensions } = setUp(':memory:', notFound);
    log.capture(ALICE, 'chat', 'probe line');
    log.flush();
    outbox.start();
    await time.advance(0);
    expect(received).toHaveLength(1);
    expect(extensions.isMissing('sendChatLog', time.now())).toBe(true);

    for (let round = 0; round < 3; round += 1) {
      for (let index = 0; index < 600; index += 1) log.capture(ALICE, 'chat', `line ${index}`);
      expect(log.flush()).toMatchObject({ batches: 0, notOffered: 600 });
      await time.advance(2000);
    }
    expect(received).toHaveLength(1);
    expect(rows()).toEqual([]);
    expect(log.buffered).toBe(0);
  });

  it('keeps flushed batches across a restart (a real SQLite file); a crash loses only the lines not yet flushed', async () => {
    const file = databaseFile();
    const before = setUp(file, () => Promise.reject(new TypeError('fetch failed')));
    before.log.capture(ALICE, 'chat', 'flushed one');
    before.log.capture(BOB, 'command', '/home');
    before.log.flush();
    before.log.capture(ALICE, 'chat', 'captured after the last flush');
    // The crash: the process ends without a flush or a stop.
    before.db.close();

    const after = setUp(file, accepted, { batchPrefix: 'after' });
    after.outbox.start();
    await after.time.advance(0);
    expect(after.received).toHaveLength(1);
    expect(after.received[0]!.batchId).toBe('batch-1');
    expect(linesOf(after.received[0]!)).toEqual(['Alice chat flushed one', 'Bob command /home']);
  });

  it('sends what was captured at a clean stop after the restart', async () => {
    const file = databaseFile();
    const before = setUp(file, () => Promise.reject(new TypeError('fetch failed')));
    before.log.capture(ALICE, 'chat', 'said just before the stop');
    expect(before.log.close()).toMatchObject({ batches: 1, lines: 1 });
    before.log.capture(ALICE, 'chat', 'after close');
    expect(before.log.buffered).toBe(0);
    before.db.close();

    const after = setUp(file, accepted);
    after.outbox.start();
    await after.time.advance(0);
    expect(after.received.flatMap(linesOf)).toEqual(['Alice chat said just before the stop']);
  });

  it("bounds the outbox's chat-log share: the oldest batches are dropped, counted and logged, other rows never", () => {
    const { log, outbox, rows, logged } = setUp(':memory:', accepted, { maxOutboxBatches: 2 });
    outbox.enqueue(
      {
        operation: 'acknowledgePunishment',
        payload: { punishmentId: 'p-1', playerUuid: ALICE.uuid, success: true },
      },
      { idempotencyKey: 'ack-p-1' },
    );
    for (let round = 1; round <= 4; round += 1) {
      for (let line = 0; line < round; line += 1) log.capture(ALICE, 'chat', `round ${round} line ${line}`);
      log.flush();
    }
    expect(rows().map((row) => row.operation)).toEqual(['acknowledgePunishment', 'sendChatLog', 'sendChatLog']);
    const kept = rows()
      .filter((row) => row.operation === 'sendChatLog')
      .map((row) => (JSON.parse(row.payload) as ChatLogBody).batchId);
    expect(kept).toEqual(['batch-3', 'batch-4']);
    const warnings = logged.lines.filter((line) => line.message.includes('oldest were dropped'));
    expect(warnings.map((line) => line.fields)).toEqual([
      { batches: 1, lines: 1 },
      { batches: 1, lines: 2 },
    ]);
  });
});
