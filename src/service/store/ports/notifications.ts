/** A notification not yet acknowledged, with the punishment it is about (null when unknown). */
export interface PendingNotificationRow {
  id: string;
  created_at: number;
  type_ordinal: number | null;
  reason: string | null;
  /** The notice's own text (a staff reply); null for a punishment's notice. */
  message: string | null;
}

/** An unread notice with its own text, for {@link NotificationStore.unreadTextSince}. */
export interface UnreadTextNoticeRow {
  id: string;
  player_uuid: string;
  message: string;
  created_at: number;
}

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
