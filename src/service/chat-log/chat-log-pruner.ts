import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Timers } from '../../ports/timers.js';
import { BatchLoop } from '../batch-loop.js';
import type { ServiceStorage } from '../store/ports/storage.js';
import { chatLogSettingsOf } from './chat-log-settings.js';

export interface ChatLogPrunerSettings {
  /** Pause between two rounds of the networks. */
  intervalMs: number;
  /** Rows one statement deletes at most; the event loop is free between batches. */
  batchSize: number;
}

export const CHAT_LOG_PRUNE_INTERVAL_MS = 10 * 60 * 1000;
// About a millisecond of deletes: a backlog is worked off between requests, never in front of one for long.
export const CHAT_LOG_PRUNE_BATCH_SIZE = 200;

const DAY_MS = 86_400_000;

/**
 * Keeps each network's chat log within its retention and size bound: a round of the networks at
 * start, then one every `intervalMs`. Each timer turn prunes one network by at most one batch of
 * each kind, in one transaction; a network whose batch came back full is pruned again next turn.
 */
export class ChatLogPruner {
  private readonly loop: BatchLoop;
  private round: number[] = [];

  constructor(
    private readonly storage: Pick<ServiceStorage, 'transaction' | 'stores'>,
    private readonly clock: Clock,
    timers: Timers,
    logger: Logger,
    private readonly settings: ChatLogPrunerSettings,
  ) {
    this.loop = new BatchLoop(timers, logger, 'chat log pruning', settings.intervalMs, () => this.pruneBatch());
  }

  start(): void {
    this.loop.start();
  }

  /** Stops; resolves once a batch under way has finished. */
  close(): Promise<void> {
    return this.loop.close();
  }

  /** Prunes one network by one batch; true when more is waiting (this network or the round's next). */
  async pruneBatch(): Promise<boolean> {
    if (this.round.length === 0) this.round = await this.storage.stores.chatLog.networksWithLog();
    const networkId = this.round.shift();
    if (networkId === undefined) return false;
    const { batchSize } = this.settings;
    const pruned = await this.storage.transaction(async (stores) => {
      const { retentionDays, maxLines } = chatLogSettingsOf(await stores.chatLog.settings(networkId));
      return stores.chatLog.prune(networkId, this.clock.now() - retentionDays * DAY_MS, maxLines, batchSize);
    });
    const isFull = pruned.expired === batchSize || pruned.overBound === batchSize || pruned.batches === batchSize;
    if (isFull) this.round.push(networkId);
    return this.round.length > 0;
  }
}
