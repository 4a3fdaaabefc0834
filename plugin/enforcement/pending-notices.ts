import type { PendingNotification } from '../../src/contract/schemas.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import { queueNoticeAck } from '../acks/acknowledgements.js';
import { playerWritten } from '../messages/player-text.js';
import type { EnforcementContext } from './enforcement-context.js';

/** A login check's notices wait this long for their player to finish joining. */
const HOLD_MS = 120_000;
/** Bound on players waiting; the oldest are dropped first (the service keeps them pending). */
const MAX_HELD_PLAYERS = 10_000;

interface Held {
  notifications: readonly PendingNotification[];
  heldAt: number;
}

/**
 * Notices the login check answered, held from pre-login until the player has joined, then shown
 * and acknowledged through the outbox (once per id). Notices of punishments in the cache are left
 * to the join notices, which show them with the punishment's own text.
 */
export class PendingNotices {
  private readonly held = new Map<string, Held>();

  constructor(private readonly context: EnforcementContext) {}

  get size(): number {
    return this.held.size;
  }

  /** Keeps the player's notices for their join, or shows them now when they are already online. */
  hold(uuid: string, notifications: readonly PendingNotification[]): void {
    const now = this.context.clock.now();
    this.prune(now);
    if (notifications.length === 0) return;
    // Re-inserted so the map stays ordered by age for pruning.
    this.held.delete(uuid);
    this.held.set(uuid, { notifications, heldAt: now });
    const online = this.context.players.byUuid(uuid);
    if (online) this.deliver(online);
  }

  /** Shows the held notices of a player who has joined and queues their acknowledgement. */
  deliver(player: Player): void {
    const uuid = player.uuid.toLowerCase();
    const entry = this.held.get(uuid);
    if (!entry) return;
    this.held.delete(uuid);
    const now = this.context.clock.now();
    const lines: string[] = [];
    this.context.db.transaction(() => {
      for (const notification of entry.notifications) {
        if (this.context.cache.get(notification.id)) continue;
        // Already acknowledged from here: shown before (a staff reply shown at once, then a quick rejoin).
        if (!queueNoticeAck(this.context.outbox, { id: notification.id, targetUuid: uuid }, now)) continue;
        const message = playerWritten(notification.message);
        lines.push(this.context.messages(player).render('notice.service', { message }));
      }
    })();
    for (const line of lines) player.sendMessage(line);
  }

  private prune(now: number): void {
    for (const [uuid, entry] of this.held) {
      if (now - entry.heldAt < HOLD_MS && this.held.size < MAX_HELD_PLAYERS) break;
      this.held.delete(uuid);
    }
  }
}
