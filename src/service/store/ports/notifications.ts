export type { PendingNotificationRow, UnreadTextNoticeRow } from '../notifications.js';

import type { PendingNotificationRow, UnreadTextNoticeRow } from '../notifications.js';

/** How many of the ids given to acknowledge were the player's. */
export interface AcknowledgeCount {
  known: number;
  unknown: number;
}

/**
 * One pending notification per punishment, for its target (its id is the punishment id), and
 * notices with their own text, such as a staff reply to a player's ticket (its id is the reply id).
 */
export interface NotificationStorePort {
  /** Not yet acknowledged, oldest first. */
  pendingFor(networkId: number, playerUuid: string): Promise<PendingNotificationRow[]>;
  /** Creates it unless one with this id exists. */
  create(networkId: number, id: string, playerUuid: string, nowMs: number): Promise<void>;
  /** Marks the player's notifications acknowledged (the first time counts); ids not theirs (or unknown) are counted, not failed. */
  acknowledge(networkId: number, playerUuid: string, ids: readonly string[], at: number): Promise<AcknowledgeCount>;
  /** undefined when there is no notification with this id. */
  acknowledgedAt(networkId: number, id: string): Promise<number | null | undefined>;
  /** Creates a notice that carries its own text (shown as it is) unless one with this id exists. */
  createWithText(
    networkId: number,
    notice: { id: string; playerUuid: string; message: string },
    nowMs: number,
  ): Promise<void>;
  /** The network's unacknowledged notices with text created at or after `sinceMs`, oldest first, at most `limit`. */
  unreadTextSince(networkId: number, sinceMs: number, limit: number): Promise<UnreadTextNoticeRow[]>;
}
