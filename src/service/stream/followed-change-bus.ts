import type { ChangeBus } from './change-bus.js';
import type { ChangeFollower } from './change-follower.js';

/** Where the bus hears of other instances' changes (PostgreSQL's LISTEN). */
export interface ChangeNotifications {
  start(handlers: { onChange(networkId: number, sequence: number): void; onListening(): void }): Promise<void>;
  close(): Promise<void>;
}

/** What the bus reads to know the sequence of a change this instance wrote. */
export interface SequenceReader {
  sequenceOf(networkId: number, punishmentId: string): Promise<number | undefined> | number | undefined;
}

/**
 * Several instances on one database: every instance's follower publishes changes read from the
 * shared change log, whether this instance wrote them (published at once) or another did (its
 * notification). A change notified and also written here is published once: the follower's cursor.
 */
export class FollowedChangeBus implements ChangeBus {
  constructor(
    private readonly follower: ChangeFollower,
    private readonly log: SequenceReader,
    private readonly notifications: ChangeNotifications,
  ) {}

  start(): Promise<void> {
    return this.notifications.start({
      onChange: (networkId, sequence) => void this.follower.notice(networkId, sequence),
      onListening: () => void this.follower.noticeAll(),
    });
  }

  async changed(networkId: number, punishmentId: string): Promise<void> {
    if (!this.follower.isFollowing) return;
    const sequence = await this.log.sequenceOf(networkId, punishmentId);
    if (sequence !== undefined) await this.follower.notice(networkId, sequence);
  }

  close(): Promise<void> {
    return this.notifications.close();
  }
}
