import type { Db } from '../../db/open-db.js';

/** A notification not yet acknowledged, with the punishment it is about (null when unknown). */
export interface PendingNotificationRow {
  id: string;
  created_at: number;
  type_ordinal: number | null;
  reason: string | null;
  /** The notice's own text (a staff reply); null for a punishment's notice. */
  message: string | null;
}

/** The statements of {@link NotificationStore}; test/service/query-plans.test.ts checks each one's plan. */
export const NOTIFICATION_SQL = {
  insert: `INSERT OR IGNORE INTO service_notifications (network_id, id, player_uuid, created_at)
    VALUES (@networkId, @id, @playerUuid, @nowMs)`,
  insertWithText: `INSERT OR IGNORE INTO service_notifications (network_id, id, player_uuid, created_at, message)
    VALUES (@networkId, @id, @playerUuid, @nowMs, @message)`,
  // Acknowledging twice keeps the first time.
  acknowledge: `UPDATE service_notifications SET acknowledged_at = coalesce(acknowledged_at, @at)
    WHERE network_id = @networkId AND id = @id AND player_uuid = @playerUuid`,
  byId: 'SELECT acknowledged_at FROM service_notifications WHERE network_id = ? AND id = ?',
  pendingFor: `SELECT n.id, n.created_at, p.type_ordinal, p.reason, n.message FROM service_notifications n
    LEFT JOIN service_punishments p ON p.network_id = n.network_id AND p.id = n.id
    WHERE n.network_id = ? AND n.player_uuid = ? AND n.acknowledged_at IS NULL
    ORDER BY n.created_at`,
  unreadTextSince: `SELECT id, player_uuid, message, created_at FROM service_notifications
    WHERE network_id = @networkId AND message IS NOT NULL AND acknowledged_at IS NULL AND created_at >= @sinceMs
    ORDER BY created_at, id LIMIT @limit`,
} as const;

/** An unread notice with its own text, for {@link NotificationStore.unreadTextSince}. */
export interface UnreadTextNoticeRow {
  id: string;
  player_uuid: string;
  message: string;
  created_at: number;
}

/**
 * One pending notification per punishment, for its target (its id is the punishment id), and
 * notices with their own text, such as a staff reply to a player's ticket (its id is the reply id).
 */
export class NotificationStore {
  private readonly insert;
  private readonly insertWithText;
  private readonly acknowledgeOne;
  private readonly byId;
  private readonly pendingStatement;
  private readonly unreadText;

  constructor(private readonly db: Db) {
    this.insert = db.prepare<{ networkId: number; id: string; playerUuid: string; nowMs: number }>(
      NOTIFICATION_SQL.insert,
    );
    this.insertWithText = db.prepare<{
      networkId: number;
      id: string;
      playerUuid: string;
      nowMs: number;
      message: string;
    }>(NOTIFICATION_SQL.insertWithText);
    this.acknowledgeOne = db.prepare<{ networkId: number; id: string; playerUuid: string; at: number }>(
      NOTIFICATION_SQL.acknowledge,
    );
    this.byId = db.prepare<[number, string], { acknowledged_at: number | null }>(NOTIFICATION_SQL.byId);
    this.pendingStatement = db.prepare<[number, string], PendingNotificationRow>(NOTIFICATION_SQL.pendingFor);
    this.unreadText = db.prepare<{ networkId: number; sinceMs: number; limit: number }, UnreadTextNoticeRow>(
      NOTIFICATION_SQL.unreadTextSince,
    );
  }

  pendingFor(networkId: number, playerUuid: string): PendingNotificationRow[] {
    return this.pendingStatement.all(networkId, playerUuid.toLowerCase());
  }

  create(networkId: number, id: string, playerUuid: string, nowMs: number): void {
    this.insert.run({ networkId, id, playerUuid: playerUuid.toLowerCase(), nowMs });
  }

  /** The network's unread notices with text created at or after `sinceMs`, oldest first. */
  unreadTextSince(networkId: number, sinceMs: number, limit: number): UnreadTextNoticeRow[] {
    return this.unreadText.all({ networkId, sinceMs, limit });
  }

  /** A notice that carries its own text, shown as it is. */
  createWithText(networkId: number, notice: { id: string; playerUuid: string; message: string }, nowMs: number): void {
    this.insertWithText.run({ networkId, ...notice, playerUuid: notice.playerUuid.toLowerCase(), nowMs });
  }

  /** Marks the player's notifications acknowledged; ids not theirs (or unknown) are counted, not failed. */
  acknowledge(networkId: number, playerUuid: string, ids: readonly string[], at: number) {
    const uuid = playerUuid.toLowerCase();
    return this.db.transaction(() => {
      let known = 0;
      for (const id of new Set(ids)) known += this.acknowledgeOne.run({ networkId, id, playerUuid: uuid, at }).changes;
      return { known, unknown: new Set(ids).size - known };
    })();
  }

  /** undefined when there is no notification with this id. */
  acknowledgedAt(networkId: number, id: string): number | null | undefined {
    return this.byId.get(networkId, id)?.acknowledged_at;
  }
}
