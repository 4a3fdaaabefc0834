import { describe, expect, it } from 'vitest';
import type { ChatLogPageQuery, NewChatLine } from '../../../src/service/store/ports/chat-log.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, twoNetworks } from './fixtures.js';

const line = (atMs: number, text: string, overrides: Partial<NewChatLine> = {}): NewChatLine => ({
  serverName: 'lobby',
  playerUuid: NOTCH,
  playerName: 'Notch',
  kind: 'chat',
  text,
  atMs,
  ...overrides,
});

const everything = (overrides: Partial<ChatLogPageQuery> = {}): ChatLogPageQuery => ({
  playerUuid: NOTCH,
  fromMs: 0,
  untilMs: Number.MAX_SAFE_INTEGER,
  limit: 100,
  ...overrides,
});

describe.each(BACKENDS)('chat log store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it("stores a batch once per network, counts the network's lines, and keeps networks apart", async () => {
    const { alpha, beta } = await twoNetworks(storage().stores);
    const batch = [line(1_000, 'hello'), line(2_000, '/msg jeb_ hi', { kind: 'command' })];
    const store = (networkId: number, batchId: string) =>
      storage().transaction((stores) => stores.chatLog.storeBatch(networkId, batchId, 5_000, batch));
    expect(await store(alpha, 'b-1')).toBe(true);
    expect(await store(alpha, 'b-1')).toBe(false);
    expect(await store(beta, 'b-1')).toBe(true);
    const { chatLog } = storage().stores;
    expect(await chatLog.storedLines(alpha)).toBe(2);
    expect(await chatLog.storedLines(beta)).toBe(2);
    const alphaLines = await chatLog.page(alpha, everything());
    expect(alphaLines.map(({ id: _id, ...rest }) => rest)).toEqual([
      line(2_000, '/msg jeb_ hi', { kind: 'command' }),
      line(1_000, 'hello'),
    ]);
    const betaLines = await chatLog.page(beta, everything());
    expect(new Set([...alphaLines, ...betaLines].map((stored) => stored.id)).size).toBe(4);
    expect(await chatLog.networksWithLog()).toEqual([alpha, beta]);
  });

  it("pages one player's lines newest first by time then id, within a range, by kind and by text", async () => {
    const { alpha } = await twoNetworks(storage().stores);
    await storage().transaction((stores) =>
      stores.chatLog.storeBatch(alpha, 'b-1', 0, [
        line(1_000, 'first'),
        line(2_000, 'Second 100% sure'),
        line(2_000, 'second too'),
        line(3_000, '/home', { kind: 'command' }),
        line(4_000, 'not mine', { playerUuid: JEB, playerName: 'jeb_' }),
        line(5_000, 'a_b'),
      ]),
    );
    const { chatLog } = storage().stores;
    const texts = async (query: Partial<ChatLogPageQuery>) =>
      (await chatLog.page(alpha, everything(query))).map((stored) => stored.text);

    expect(await texts({})).toEqual(['a_b', '/home', 'second too', 'Second 100% sure', 'first']);
    expect(await texts({ playerUuid: NOTCH.toUpperCase(), fromMs: 2_000, untilMs: 3_000 })).toEqual([
      'second too',
      'Second 100% sure',
    ]);
    expect(await texts({ kind: 'command' })).toEqual(['/home']);
    expect(await texts({ kind: 'chat', search: 'SECOND' })).toEqual(['second too', 'Second 100% sure']);
    // LIKE's wildcards are searched as themselves.
    expect(await texts({ search: '100%' })).toEqual(['Second 100% sure']);
    expect(await texts({ search: '_' })).toEqual(['a_b']);
    expect(await texts({ search: 'nothing like it' })).toEqual([]);

    const first = await chatLog.page(alpha, everything({ limit: 2 }));
    expect(first.map((stored) => stored.text)).toEqual(['a_b', '/home']);
    const last = first.at(-1)!;
    const second = await chatLog.page(alpha, everything({ limit: 2, after: { atMs: last.atMs, id: last.id } }));
    expect(second.map((stored) => stored.text)).toEqual(['second too', 'Second 100% sure']);
    const tail = second.at(-1)!;
    expect(
      (await chatLog.page(alpha, everything({ limit: 2, after: { atMs: tail.atMs, id: tail.id } }))).map(
        (stored) => stored.text,
      ),
    ).toEqual(['first']);
    // A cursor after the range's end starts at the end.
    expect(await texts({ untilMs: 2_000, after: { atMs: 9_000, id: 99 } })).toEqual(['first']);
  });

  it('keeps settings per network, null meaning the default', async () => {
    const { alpha, beta } = await twoNetworks(storage().stores);
    const { chatLog } = storage().stores;
    expect(await chatLog.settings(alpha)).toEqual({ retentionDays: null, maxLines: null });
    await chatLog.setRetentionDays(alpha, 7);
    await chatLog.setMaxLines(alpha, 5_000_000_000);
    expect(await chatLog.settings(alpha)).toEqual({ retentionDays: 7, maxLines: 5_000_000_000 });
    expect(await chatLog.settings(beta)).toEqual({ retentionDays: null, maxLines: null });
    await chatLog.setRetentionDays(alpha, null);
    expect(await chatLog.settings(alpha)).toEqual({ retentionDays: null, maxLines: 5_000_000_000 });
    expect(await chatLog.storedLines(alpha)).toBe(0);
  });

  it('prunes lines and batch ids past the retention, then the oldest over the bound, in bounded batches', async () => {
    const { alpha, beta } = await twoNetworks(storage().stores);
    const lines = Array.from({ length: 10 }, (_, i) => line(1_000 * (i + 1), `line ${i + 1}`));
    await storage().transaction(async (stores) => {
      await stores.chatLog.storeBatch(alpha, 'old', 1_000, lines.slice(0, 5));
      await stores.chatLog.storeBatch(alpha, 'new', 9_000, lines.slice(5));
      await stores.chatLog.storeBatch(beta, 'old', 1_000, lines);
    });
    const prune = (beforeMs: number, maxLines: number, limit: number) =>
      storage().transaction((stores) => stores.chatLog.prune(alpha, beforeMs, maxLines, limit));
    const { chatLog } = storage().stores;
    const kept = async () => (await chatLog.page(alpha, everything())).map((stored) => stored.text).reverse();

    // Lines before 4,000 are past the retention: two at a time.
    expect(await prune(4_000, 100, 2)).toEqual({ expired: 2, overBound: 0, batches: 1 });
    expect(await prune(4_000, 100, 2)).toEqual({ expired: 1, overBound: 0, batches: 0 });
    expect(await kept()).toEqual(lines.slice(3).map((l) => l.text));
    expect(await chatLog.storedLines(alpha)).toBe(7);
    // The batch id past the retention is forgotten: sent again, it would be stored again.
    expect(
      await storage().transaction((stores) => stores.chatLog.storeBatch(alpha, 'old', 10_000, [line(10_500, 'again')])),
    ).toBe(true);
    expect(await storage().transaction((stores) => stores.chatLog.storeBatch(alpha, 'new', 10_000, []))).toBe(false);

    // 8 lines now; a bound of 5 drops the 3 oldest, at most 2 per prune.
    expect(await prune(0, 5, 2)).toEqual({ expired: 0, overBound: 2, batches: 0 });
    expect(await prune(0, 5, 2)).toEqual({ expired: 0, overBound: 1, batches: 0 });
    expect(await prune(0, 5, 2)).toEqual({ expired: 0, overBound: 0, batches: 0 });
    expect(await kept()).toEqual(['line 7', 'line 8', 'line 9', 'line 10', 'again']);
    expect(await chatLog.storedLines(alpha)).toBe(5);
    expect(await chatLog.storedLines(beta)).toBe(10);
    expect((await chatLog.page(beta, everything())).length).toBe(10);
  });
});
