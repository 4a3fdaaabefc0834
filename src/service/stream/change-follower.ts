import type { Logger } from '../../ports/logger.js';
import type { LoggedChange, NewestSequence } from '../store/ports/stream-changes.js';
import type { PunishmentRenderer } from '../store/punishment-renderer.js';
import type { PunishmentFeed } from './punishment-feed.js';

/** What the follower reads: the change log, asynchronously (any store dialect). */
export interface ChangeLogReader {
  changesAfter(networkId: number, after: number, limit: number): Promise<LoggedChange[]> | LoggedChange[];
  newestSequences(): Promise<NewestSequence[]> | NewestSequence[];
}

export interface FollowerSettings {
  /** Changes read per query. */
  pageSize: number;
  /** Pages one catch-up reads at most; the rest is left to the connections, which read the log themselves. */
  maxPages: number;
}

/**
 * Publishes into this instance's feed the changes of the change log it has not published yet,
 * network by network, in sequence order. Told of a change (by a notification, or by this instance
 * writing one), it reads the log from where it stopped, so a lost notification is caught up by the
 * next. A network it has never followed starts just before the change it was told about: a
 * connection that sees a gap reads the missing changes from the log itself.
 */
export class ChangeFollower {
  private readonly cursors = new Map<number, number>();
  private readonly running = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();

  constructor(
    private readonly log: ChangeLogReader,
    private readonly render: Pick<PunishmentRenderer, 'one'>,
    private readonly feed: PunishmentFeed,
    private readonly logger: Logger,
    private readonly settings: FollowerSettings,
  ) {}

  /** Whether any stream connection on this instance listens to the feed. */
  get isFollowing(): boolean {
    return this.feed.listenerCount('punishment:changed') > 0;
  }

  /** The network's log reached `sequence`; resolves once what this call asked for is published. */
  notice(networkId: number, sequence: number): Promise<void> {
    const cursor = this.cursors.get(networkId);
    if (cursor !== undefined && sequence <= cursor) return Promise.resolve();
    // Nobody streams on this instance: nothing to read; a later connection starts afresh.
    if (!this.isFollowing) {
      this.cursors.delete(networkId);
      return Promise.resolve();
    }
    if (cursor === undefined) this.cursors.set(networkId, sequence - 1);
    return this.follow(networkId);
  }

  /**
   * Every network, after a reconnection, when notifications may have been lost: a followed network
   * from where it stopped; one this instance never followed from its newest change, which a
   * connection behind it sees as a gap and reads from the log (so the first change of a network
   * made while the listener was away is not left until the next).
   */
  async noticeAll(): Promise<void> {
    if (!this.isFollowing) return;
    try {
      for (const { networkId, sequence } of await this.log.newestSequences()) {
        if (!this.cursors.has(networkId)) this.cursors.set(networkId, sequence - 1);
      }
    } catch (error) {
      this.logger.error('stream change follower could not read where the change logs stand', {
        problem: error instanceof Error ? error.message : String(error),
      });
    }
    await Promise.all([...this.cursors.keys()].map((networkId) => this.follow(networkId)));
  }

  private follow(networkId: number): Promise<void> {
    const current = this.running.get(networkId);
    if (current) {
      this.again.add(networkId);
      return current;
    }
    const run = this.catchUp(networkId).finally(() => this.running.delete(networkId));
    this.running.set(networkId, run);
    return run;
  }

  private async catchUp(networkId: number): Promise<void> {
    try {
      do {
        this.again.delete(networkId);
        for (let page = 0; page < this.settings.maxPages; page += 1) {
          const cursor = this.cursors.get(networkId) ?? 0;
          const changes = await this.log.changesAfter(networkId, cursor, this.settings.pageSize);
          for (const change of changes) {
            this.cursors.set(networkId, change.sequence);
            const punishment = this.render.one(change);
            if (punishment) this.feed.publish(networkId, punishment, change.sequence);
          }
          if (changes.length < this.settings.pageSize) break;
        }
      } while (this.again.has(networkId));
    } catch (error) {
      this.logger.error('stream change follower could not read the change log', {
        networkId,
        problem: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
