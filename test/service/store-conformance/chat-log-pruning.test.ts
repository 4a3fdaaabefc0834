import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/ports/logger.js';
import { ChatLogPruner } from '../../../src/service/chat-log/chat-log-pruner.js';
import type { NewChatLine } from '../../../src/service/store/ports/chat-log.js';
import type { ServiceStorage } from '../../../src/service/store/ports/storage.js';
import { FakeTime } from '../../support/fake-time.js';
import { ManualClock } from '../helpers/fixture.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { NOTCH, twoNetworks } from './fixtures.js';

const DAY_MS = 86_400_000;
const NOW_MS = Date.parse('2026-11-01T00:00:00.000Z');
const BATCH = 10;
const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

const lines = (count: number, firstAtMs: number, label: string): NewChatLine[] =>
  Array.from({ length: count }, (_, i) => ({
    serverName: 'lobby',
    playerUuid: NOTCH,
    playerName: 'Notch',
    kind: 'chat',
    text: `${label} ${i}`,
    atMs: firstAtMs + i,
  }));

/**
 * The chat log pruner on both databases, with an injected clock: each network's lines past its own
 * retention go, then its oldest lines over its size bound, a bounded batch per turn, one network
 * per turn, until nothing is left to prune.
 */
describe.each(BACKENDS)('chat log pruning on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('keeps each network within its retention and its size bound, oldest first, in batches of at most the batch size', async () => {
    const { alpha, beta } = await twoNetworks(storage().stores);
    const { chatLog } = storage().stores;
    await chatLog.setRetentionDays(alpha, 1);
    await chatLog.setMaxLines(beta, 20);
    await storage().transaction(async (stores) => {
      await stores.chatLog.storeBatch(alpha, 'a-old', NOW_MS - 2 * DAY_MS, lines(25, NOW_MS - 2 * DAY_MS, 'old'));
      await stores.chatLog.storeBatch(alpha, 'a-new', NOW_MS, lines(5, NOW_MS - 3_600_000, 'new'));
      // Two days old is within beta's default retention (30 days): only the bound drops lines.
      await stores.chatLog.storeBatch(beta, 'b-old', NOW_MS - 2 * DAY_MS, lines(30, NOW_MS - 2 * DAY_MS, 'line'));
    });
    const clock = new ManualClock(NOW_MS);
    const pruner = new ChatLogPruner(storage() as unknown as ServiceStorage, clock, new FakeTime(), silent, {
      intervalMs: 600_000,
      batchSize: BATCH,
    });
    const texts = async (networkId: number) =>
      (
        await chatLog.page(networkId, {
          playerUuid: NOTCH,
          fromMs: 0,
          untilMs: Number.MAX_SAFE_INTEGER,
          limit: 100,
          examine: 100,
        })
      ).lines.map((line) => line.text);

    let turns = 1;
    while (await pruner.pruneBatch()) turns++;
    // alpha: 25 expired lines in batches of 10 (3 turns); beta: 10 over the bound (1 turn, then one that finds none).
    expect(turns).toBeGreaterThanOrEqual(4);
    expect(await texts(alpha)).toEqual(['new 4', 'new 3', 'new 2', 'new 1', 'new 0']);
    expect(await texts(beta)).toEqual(Array.from({ length: 20 }, (_, i) => `line ${29 - i}`));
    expect(await chatLog.storedLines(alpha)).toBe(5);
    expect(await chatLog.storedLines(beta)).toBe(20);
    // alpha's old batch id is forgotten with its lines; its new one is still recognised.
    expect(await storage().transaction((stores) => stores.chatLog.storeBatch(alpha, 'a-new', NOW_MS, []))).toBe(false);
    expect(await storage().transaction((stores) => stores.chatLog.storeBatch(alpha, 'a-old', NOW_MS, []))).toBe(true);

    // A day later alpha's last lines are past its retention; beta's are within its 30 days.
    clock.advance(DAY_MS);
    while (await pruner.pruneBatch());
    expect(await texts(alpha)).toEqual([]);
    expect(await chatLog.storedLines(alpha)).toBe(0);
    expect(await texts(beta)).toHaveLength(20);
  });

  it('finds nothing to do on a service without chat lines', async () => {
    const pruner = new ChatLogPruner(
      storage() as unknown as ServiceStorage,
      new ManualClock(NOW_MS),
      new FakeTime(),
      silent,
      {
        intervalMs: 600_000,
        batchSize: BATCH,
      },
    );
    expect(await pruner.pruneBatch()).toBe(false);
  });
});
