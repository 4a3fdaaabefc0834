import pg from 'pg';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { Timers } from '../ports/timers.js';
import type { ChangeBusFactory } from './context.js';
import { SharedTokenBuckets } from './http/shared-token-buckets.js';
import { PostgresChangeListener } from './sharing/change-listener.js';
import { PgNotificationListener } from './sharing/notification-listener.js';
import { PgDb } from './sharing/pg-db.js';
import { PgRateBuckets } from './sharing/rate-buckets.js';
import { PgStaffSignals, STAFF_CHANNEL } from './sharing/staff-signals.js';
import { ChangeFollower } from './stream/change-follower.js';
import { FollowedChangeBus } from './stream/followed-change-bus.js';

export interface SharingSettings {
  databaseUrl: string;
  clock: Clock;
  timers: Timers;
  logger: Logger;
}

/** Changes read per query by the follower, and pages per catch-up. */
const FOLLOWER = { pageSize: 500, maxPages: 20 };
/** Waits between reconnections of the change listener. */
const LISTENER_BACKOFF = { baseDelayMs: 250, maxDelayMs: 10_000 };
/** One reservation takes 5% of a key's bucket: 50 of the default 1000 a minute. */
const BUCKETS = { chunkFraction: 0.05, holdMs: 1000, maxKeys: 10_000, reservationsPerCleanup: 1000 };

/**
 * What makes several instances on one PostgreSQL behave as one service, beyond the shared tables:
 * the change bus (a change written through one instance reaches streams held by every instance)
 * and the rate-limit buckets every instance spends from.
 */
export class InstanceSharing {
  readonly rateBuckets: SharedTokenBuckets;
  /** Logouts, disabled accounts and role changes told to every instance, so each closes its live feeds. */
  readonly staffSignals: PgStaffSignals;
  private bus: FollowedChangeBus | undefined;

  constructor(
    storage: { readonly pool: pg.Pool },
    private readonly settings: SharingSettings,
  ) {
    this.rateBuckets = new SharedTokenBuckets(new PgRateBuckets(new PgDb(storage.pool)), settings.clock, BUCKETS);
    const staffListener = new PgNotificationListener(
      STAFF_CHANNEL,
      () => new pg.Client({ connectionString: settings.databaseUrl }),
      settings.timers,
      settings.logger,
      LISTENER_BACKOFF,
    );
    this.staffSignals = new PgStaffSignals(new PgDb(storage.pool), staffListener, settings.logger);
  }

  /** For createContext: the bus over the context's own feed. */
  readonly changeBus: ChangeBusFactory = ({ stores, render, feed }) => {
    const { databaseUrl, timers, logger } = this.settings;
    const follower = new ChangeFollower(stores.streamChanges, render, feed, logger, FOLLOWER);
    const listener = new PostgresChangeListener(
      () => new pg.Client({ connectionString: databaseUrl }),
      timers,
      logger,
      LISTENER_BACKOFF,
    );
    this.bus = new FollowedChangeBus(follower, stores.streamChanges, listener);
    return this.bus;
  };

  /** Listens for other instances' changes; resolves once listening. */
  async start(): Promise<void> {
    await this.bus?.start();
    await this.staffSignals.start();
  }

  async close(): Promise<void> {
    await this.staffSignals.close();
    await this.bus?.close();
  }
}
