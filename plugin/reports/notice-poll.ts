import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { PendingNotice } from '../../src/contract/staff-ticket-schemas.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import type { TextNotice } from './online-notices.js';

/** Notices one poll reads at most; a full page is followed by the next at the next poll. */
export const NOTICE_POLL_PAGE_SIZE = 100;
/** The first poll also reads notices this much older than the server's start (clocks differ a little). */
const START_SLACK_MS = 60_000;

export interface NoticePollDeps {
  client: Pick<ModerationApi, 'pendingNotices' | 'gate' | 'extensions'>;
  online(): Player[];
  /** Shows one notice to its player when online here (once per id). */
  offer(notice: TextNotice): unknown;
  /** `ticketUpdates.pollIntervalMs`, read at each tick; 0: no polls. */
  pollIntervalMs(): number;
  clock: Clock;
  logger: Logger;
}

/**
 * Brings staff replies written anywhere in the network to their players online here at once: while
 * anyone is online, asks the service for the network's unread text notices since the newest seen
 * and offers each to {@link NoticePollDeps.offer}. Players who are away get them from the login
 * check at their next join. Never polls while the gate is closed or the service lacks the route.
 */
export class NoticePoll {
  #sinceMs: number;
  #lastPollAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: NoticePollDeps) {
    this.#sinceMs = deps.clock.now() - START_SLACK_MS;
  }

  async tick(): Promise<void> {
    const intervalMs = this.deps.pollIntervalMs();
    const now = this.deps.clock.now();
    if (intervalMs === 0 || now - this.#lastPollAt < intervalMs || this.deps.online().length === 0) return;
    const { client } = this.deps;
    if (client.extensions.isMissing('pendingNotices', now) || client.gate.closure(now)) return;
    this.#lastPollAt = now;
    let notices: PendingNotice[];
    try {
      ({ notifications: notices } = await client.pendingNotices({
        since: new Date(this.#sinceMs).toISOString(),
        limit: NOTICE_POLL_PAGE_SIZE,
      }));
    } catch (error) {
      this.deps.logger.debug('unread notices could not be read', { error: String(error) });
      return;
    }
    for (const notice of notices) {
      this.#sinceMs = Math.max(this.#sinceMs, Date.parse(notice.createdAt));
      this.deps.offer({ id: notice.id, playerUuid: notice.playerUuid, message: notice.message });
    }
  }
}
