import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/index.js';
import { MAX_CHAT_LOG_ENTRIES } from '../../src/contract/chat-log-schemas.js';
import type { ChatLine } from '../../src/service/store/ports/chat-log.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import {
  errorOf,
  JEB,
  KEY_A1,
  KEY_A2,
  KEY_B,
  NOTCH,
  START_MS,
  startTestService,
  type TestService,
} from './helpers/fixture.js';

const AT = new Date(START_MS - 60_000).toISOString();
const entry = (text: string, overrides: Record<string, unknown> = {}) => ({
  playerUuid: NOTCH,
  playerName: 'Notch',
  kind: 'chat',
  text,
  at: AT,
  ...overrides,
});

/**
 * The chat log extension over HTTP on both databases: a batch is stored with the network and the
 * server of the key, a batch sent again is answered the same and stored once, one network never
 * sees another's lines, and bad input is refused with the field named and nothing written.
 */
describe.each(['sqlite', 'postgres'] as const)('chat log route on %s', (dialect) => {
  let database: TestDatabase | undefined;
  let t: TestService;

  beforeAll(async () => {
    database = dialect === 'postgres' ? await createTestDatabase() : undefined;
    t = await startTestService(database ? { databaseUrl: database.url } : {});
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  async function linesOf(network: 'alpha' | 'beta', playerUuid = NOTCH): Promise<Omit<ChatLine, 'id'>[]> {
    const { stores } = t.service.context;
    const networkId = (await stores.networks.findNetwork(network))!;
    const page = await stores.chatLog.page(networkId, {
      playerUuid,
      fromMs: 0,
      untilMs: Number.MAX_SAFE_INTEGER,
      limit: 1000,
      examine: 1000,
    });
    return page.lines.map(({ id: _id, ...rest }) => rest);
  }

  it("stores a batch with the key's network and server, once however often it is sent", async () => {
    const body = {
      batchId: 'survival-1',
      entries: [entry('hello all'), entry('/spawn', { kind: 'command', playerUuid: NOTCH.toUpperCase() })],
    };
    const first = await t.call('POST', '/chat-log', body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ success: true, accepted: 2 });
    const again = await t.call('POST', '/chat-log', body);
    expect(await again.json()).toEqual({ success: true, accepted: 2 });
    // The same batch id from another server of the network is the same batch.
    const otherServer = await t.call('POST', '/chat-log', body, KEY_A2);
    expect(await otherServer.json()).toEqual({ success: true, accepted: 2 });

    const stored = { serverName: 'survival', playerUuid: NOTCH, playerName: 'Notch', atMs: START_MS - 60_000 };
    // Newest first; lines of the same time, the one stored last first.
    expect(await linesOf('alpha')).toEqual([
      { ...stored, kind: 'command', text: '/spawn' },
      { ...stored, kind: 'chat', text: 'hello all' },
    ]);
    const alpha = (await t.service.context.stores.networks.findNetwork('alpha'))!;
    expect(await t.service.context.stores.chatLog.storedLines(alpha)).toBe(2);
  });

  it("keeps networks apart: the same batch id in another network is another batch, and neither sees the other's lines", async () => {
    const response = await t.call(
      'POST',
      '/chat-log',
      { batchId: 'survival-1', entries: [entry('from beta', { playerUuid: JEB, playerName: 'jeb_' })] },
      KEY_B,
    );
    expect(await response.json()).toEqual({ success: true, accepted: 1 });
    expect((await linesOf('beta', JEB)).map((line) => [line.serverName, line.text])).toEqual([['lobby', 'from beta']]);
    expect(await linesOf('beta', NOTCH)).toEqual([]);
    expect(await linesOf('alpha', JEB)).toEqual([]);
  });

  it("through the client's sendChatLog, a line dated after the service's clock is stored at the service's time", async () => {
    const api = createModerationClient({ baseUrl: t.service.url, apiKey: KEY_A2 });
    const future = new Date(START_MS + 3_600_000).toISOString();
    const answer = await api.sendChatLog({
      batchId: 'creative-1',
      entries: [{ playerUuid: JEB, playerName: 'jeb_', kind: 'chat', text: 'from the future', at: future }],
    });
    expect(answer).toEqual({ success: true, accepted: 1 });
    expect(await linesOf('alpha', JEB)).toEqual([
      {
        serverName: 'creative',
        playerUuid: JEB,
        playerName: 'jeb_',
        kind: 'chat',
        text: 'from the future',
        atMs: START_MS,
      },
    ]);
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const before = await linesOf('alpha');
    const refusals: Array<[unknown, RegExp]> = [
      [{ entries: [entry('x')] }, /batchId: is required/],
      [{ batchId: '', entries: [entry('x')] }, /batchId: must not be empty/],
      [{ batchId: 'b'.repeat(65), entries: [entry('x')] }, /batchId: must be at most 64 characters/],
      [{ batchId: 'bad-1', entries: [] }, /entries: must hold at least one entry/],
      [
        { batchId: 'bad-2', entries: Array.from({ length: MAX_CHAT_LOG_ENTRIES + 1 }, () => entry('x')) },
        /entries: must hold at most 500 entries/,
      ],
      [{ batchId: 'bad-3', entries: [entry('ok'), entry('')] }, /entries\[1\]\.text: must not be empty/],
      [{ batchId: 'bad-4', entries: [entry('x'.repeat(257))] }, /entries\[0\]\.text: must be at most 256 characters/],
      [
        { batchId: 'bad-5', entries: [entry('x', { kind: 'shout' })] },
        /entries\[0\]\.kind: must be one of chat, command/,
      ],
      [{ batchId: 'bad-6', entries: [entry('x', { playerUuid: 'nope' })] }, /entries\[0\]\.playerUuid: must be a UUID/],
      [{ batchId: 'bad-7', entries: [entry('x', { playerName: 'n'.repeat(17) })] }, /entries\[0\]\.playerName/],
      [{ batchId: 'bad-8', entries: [entry('x', { at: 'yesterday' })] }, /entries\[0\]\.at: must be an ISO 8601/],
      [
        { batchId: 'bad-9', entries: [entry('x', { server: 'other' })] },
        /entries\[0\]\.server: is not an accepted field/,
      ],
    ];
    for (const [body, message] of refusals) {
      const response = await t.call('POST', '/chat-log', body);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toMatch(message);
    }
    expect(await linesOf('alpha')).toEqual(before);
    // A refused batch id was not remembered: sent correctly, it is stored.
    const fixed = await t.call('POST', '/chat-log', { batchId: 'bad-3', entries: [entry('fixed')] });
    expect(await fixed.json()).toEqual({ success: true, accepted: 1 });
  });

  it('answers a request without a key or with a wrong key as unauthorised, never as a missing route', async () => {
    const body = { batchId: 'nokey', entries: [entry('x')] };
    expect((await t.call('POST', '/chat-log', body, null)).status).toBe(401);
    expect((await t.call('POST', '/chat-log', body, 'not-a-key')).status).toBe(401);
    expect((await t.call('POST', '/chat-log', body, KEY_A1)).status).toBe(200);
  });

  it("sets a network's retention and size bound through the admin API, null going back to the defaults", async () => {
    const read = async () =>
      (await (await t.admin('GET', '/networks/alpha/settings')).json()) as Record<string, unknown>;
    expect(await read()).toMatchObject({ chatLogRetentionDays: 30, chatLogMaxLines: 10_000_000 });
    const changed = await t.admin('PATCH', '/networks/alpha/settings', {
      chatLogRetentionDays: 7,
      chatLogMaxLines: 1000,
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ chatLogRetentionDays: 7, chatLogMaxLines: 1000 });
    expect(await (await t.admin('GET', '/networks/beta/settings')).json()).toMatchObject({ chatLogRetentionDays: 30 });
    const bad = await t.admin('PATCH', '/networks/alpha/settings', { chatLogRetentionDays: 0 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/chatLogRetentionDays: must be at least 1 day/);
    await t.admin('PATCH', '/networks/alpha/settings', { chatLogRetentionDays: null, chatLogMaxLines: null });
    expect(await read()).toMatchObject({ chatLogRetentionDays: 30, chatLogMaxLines: 10_000_000 });
  });
});
