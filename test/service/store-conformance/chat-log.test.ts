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
  examine: 1000,
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
    const alphaLines = (await chatLog.page(alpha, everything())).lines;
    expect(alphaLines.map(({ id: _id, ...rest }) => rest)).toEqual([
      line(2_000, '/msg jeb_ hi', { kind: 'command' }),
      line(1_000, 'hello'),
    ]);
    const betaLines = (await chatLog.page(beta, everything())).lines;
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
      (await chatLog.page(alpha, everything(query))).lines.map((stored) => stored.text);

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

    const first = (await chatLog.page(alpha, everything({ limit: 2 }))).lines;
    expect(first.map((stored) => stored.text)).toEqual(['a_b', '/home']);
    const last = first.at(-1)!;
    const second = (await chatLog.page(alpha, everything({ limit: 2, after: { atMs: last.atMs, id: last.id } }))).lines;
    expect(second.map((stored) => stored.text)).toEqual(['second too', 'Second 100% sure']);
    const tail = second.at(-1)!;
    expect(
      (await chatLog.page(alpha, everything({ limit: 2, after: { atMs: tail.atMs, id: tail.id } }))).lines.map(
        (stored) => stored.text,
      ),
    ).toEqual(['first']);
    // A cursor after the range's end starts at the end.
    expect(await texts({ untilMs: 2_000, after: { atMs: 9_000, id: 99 } })).toEqual(['first']);
  });

  it('examines at most `examine` lines of a filtered page, says where it stopped, and goes on from there', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    // Lines at 1,000 to 10,000: every third holds "gg"; the line at 6,000 twice (ids break the tie).
    const texts = ['a', 'gg 2', 'b', 'c', 'gg 5', 'd', 'e', 'gg 8', 'f', 'g'];
    await storage().transaction((stores) =>
      stores.chatLog.storeBatch(alpha, 'b-1', 0, [
        ...texts.map((text, i) => line((i + 1) * 1_000, text)),
        line(6_000, 'gg tie', { playerUuid: NOTCH }),
        line(9_500, 'gg other player', { playerUuid: JEB, playerName: 'jeb_' }),
      ]),
    );
    const { chatLog } = storage().stores;
    const search = (overrides: Partial<ChatLogPageQuery>) =>
      chatLog.page(alpha, everything({ search: 'gg', limit: 2, examine: 4, ...overrides }));
    const textsOf = (page: { lines: { text: string }[] }) => page.lines.map((stored) => stored.text);

    // The 4 newest (10,000 to 7,000) hold one match: the page is short and says it stopped at 7,000.
    const first = await search({});
    expect(textsOf(first)).toEqual(['gg 8']);
    expect(first.examinedTo?.atMs).toBe(7_000);
    // From there: 6,000 (twice) and 5,000 fill the page before 4 lines are examined.
    const second = await search({ after: first.examinedTo! });
    expect(textsOf(second)).toEqual(['gg tie', 'gg 5']);
    expect(second.examinedTo).toBeUndefined();
    const last = second.lines.at(-1)!;
    // 4,000 to 1,000: the range's last 4 lines, examined to the oldest.
    const third = await search({ after: { atMs: last.atMs, id: last.id } });
    expect(textsOf(third)).toEqual(['gg 2']);
    expect(third.examinedTo?.atMs).toBe(1_000);
    expect(await search({ after: third.examinedTo! })).toEqual({ lines: [] });
    // Fewer lines in the range than `examine`: all of them are examined, nothing left to say.
    const whole = await search({ fromMs: 8_000, examine: 5 });
    expect(textsOf(whole)).toEqual(['gg 8']);
    expect(whole.examinedTo).toBeUndefined();
    // A kind alone is bounded the same way; no filter reads `limit` lines, whatever `examine` says.
    expect(await chatLog.page(alpha, everything({ kind: 'command', examine: 3 }))).toMatchObject({
      lines: [],
      examinedTo: { atMs: 8_000 },
    });
    expect(textsOf(await chatLog.page(alpha, everything({ limit: 5, examine: 1 })))).toEqual([
      'g',
      'f',
      'gg 8',
      'e',
      'gg tie',
    ]);
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
    const kept = async () => (await chatLog.page(alpha, everything())).lines.map((stored) => stored.text).reverse();

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
    expect((await chatLog.page(beta, everything())).lines).toHaveLength(10);
  });
});
