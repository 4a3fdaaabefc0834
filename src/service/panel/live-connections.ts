import type { StaffChange } from '../staff-signals.js';

/** How many live feeds may be open at once (see docs/operators/security.md). */
export interface LiveCaps {
  /** Per staff account, whatever the network it looks at. */
  perAccount: number;
  /** Per network, superusers looking at it included; below `total`, so no network fills the service alone. */
  perNetwork: number;
  /** In the whole service instance: the last resort. */
  total: number;
}

/** One account a few tabs; a network its whole staff; the service ten such networks before the last resort. */
export const DEFAULT_LIVE_CAPS: LiveCaps = { perAccount: 5, perNetwork: 50, total: 500 };

/** What is wrong with a set of caps (one network alone must never reach the total), or undefined. */
export function liveCapsProblem(caps: LiveCaps): string | undefined {
  if (caps.perNetwork >= caps.total) {
    return `the live dashboards of one network (${caps.perNetwork}) must stay below those of the whole service (${caps.total}), so one network cannot take them all`;
  }
  if (caps.perAccount > caps.perNetwork) {
    return `the live dashboards of one account (${caps.perAccount}) cannot be more than those of a network (${caps.perNetwork})`;
  }
  return undefined;
}

/** One open live feed: whom it serves, how to end it, and how to tell whether it may go on. */
export interface LiveFeed {
  accountId: number;
  networkId: number;
  role: string;
  end(): void;
  /** Reads the session again: false once it ended or what it may see changed. */
  isStillAllowed(): Promise<boolean>;
}

/** Why a feed was not let in: the status and the text the page gets. */
export interface LiveRefusal {
  statusCode: 429 | 503;
  message: string;
}

const countIn = (counts: Map<number, number>, key: number, by: number) => {
  const count = (counts.get(key) ?? 0) + by;
  if (count === 0) counts.delete(key);
  else counts.set(key, count);
};

/**
 * The live feeds open on this instance: caps per account, per network and in all, and the staff
 * changes that end them (a logout or a disabled account ends its feeds within a round trip to the
 * database, not at the next heartbeat).
 */
export class LiveConnections {
  private readonly feeds = new Set<LiveFeed>();
  private readonly perAccount = new Map<number, number>();
  private readonly perNetwork = new Map<number, number>();

  constructor(private readonly caps: LiveCaps) {}

  get size(): number {
    return this.feeds.size;
  }

  /** Counts the feed in, or says why it may not open now. */
  admit(feed: LiveFeed): LiveRefusal | undefined {
    const { perAccount, perNetwork, total } = this.caps;
    if ((this.perAccount.get(feed.accountId) ?? 0) >= perAccount) {
      return {
        statusCode: 429,
        message: `your account has ${perAccount} live dashboards open already (the most it may); close one, the page still works`,
      };
    }
    if ((this.perNetwork.get(feed.networkId) ?? 0) >= perNetwork) {
      return {
        statusCode: 429,
        message: `this network has ${perNetwork} live dashboards open already (the most it may); the page still works`,
      };
    }
    if (this.feeds.size >= total) {
      return { statusCode: 503, message: 'too many live dashboards open on this service; the page still works' };
    }
    this.feeds.add(feed);
    countIn(this.perAccount, feed.accountId, 1);
    countIn(this.perNetwork, feed.networkId, 1);
    return undefined;
  }

  remove(feed: LiveFeed): void {
    if (!this.feeds.delete(feed)) return;
    countIn(this.perAccount, feed.accountId, -1);
    countIn(this.perNetwork, feed.networkId, -1);
  }

  /** Checks the feeds a change concerns again, and ends those that may no longer run. */
  async recheck(change: StaffChange): Promise<void> {
    const concerned = [...this.feeds].filter(
      (feed) =>
        change.kind === 'everyone' ||
        (change.kind === 'account' && feed.accountId === change.accountId) ||
        (change.kind === 'role' && feed.networkId === change.networkId && feed.role === change.role),
    );
    await Promise.all(
      concerned.map(async (feed) => {
        // A session that cannot be read now (the database is away) ends too: the page reconnects.
        const allowed = await feed.isStillAllowed().catch(() => false);
        if (!allowed) feed.end();
      }),
    );
  }
}
