import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { PendingNotificationRow, UnreadTextNoticeRow } from '../notifications.js';

/** The statements of {@link PgNotificationStore}. */
export const PG_NOTIFICATION_SQL = pgStatements('notifications', {
  insert: `INSERT INTO service_notifications (network_id, id, player_uuid, created_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT DO NOTHING`,
  insertWithText: `INSERT INTO service_notifications (network_id, id, player_uuid, created_at, message)
    VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
  // Acknowledging twice keeps the first time; ids not the player's are not touched.
  acknowledge: `UPDATE service_notifications SET acknowledged_at = coalesce(acknowledged_at, $4)
    WHERE network_id = $1 AND player_uuid = $2 AND id = ANY($3::text[])`,
  byId: 'SELECT acknowledged_at FROM service_notifications WHERE network_id = $1 AND id = $2',
  pendingFor: `SELECT n.id, n.created_at, p.type_ordinal, p.reason, n.message FROM service_notifications n
    LEFT JOIN service_punishments p ON p.network_id = n.network_id AND p.id = n.id
    WHERE n.network_id = $1 AND n.player_uuid = $2 AND n.acknowledged_at IS NULL
    ORDER BY n.created_at`,
  // The same conditions as the partial index service_notifications_unread_text.
  unreadTextSince: `SELECT id, player_uuid, message, created_at FROM service_notifications
    WHERE network_id = $1 AND message IS NOT NULL AND acknowledged_at IS NULL AND created_at >= $2
    ORDER BY created_at, id LIMIT $3`,
});

/**
 * One pending notification per punishment, for its target (its id is the punishment id), and
 * notices with their own text, such as a staff reply (its id is the reply id); on PostgreSQL.
 */
export class PgNotificationStore {
  constructor(private readonly db: PgDb) {}

  pendingFor(networkId: number, playerUuid: string): Promise<PendingNotificationRow[]> {
    return this.db.rows(PG_NOTIFICATION_SQL.pendingFor, [networkId, playerUuid.toLowerCase()]);
  }

  async create(networkId: number, id: string, playerUuid: string, nowMs: number): Promise<void> {
    await this.db.run(PG_NOTIFICATION_SQL.insert, [networkId, id, playerUuid.toLowerCase(), nowMs]);
  }

  /** A notice that carries its own text, shown as it is. */
  async createWithText(
    networkId: number,
    notice: { id: string; playerUuid: string; message: string },
    nowMs: number,
  ): Promise<void> {
    const values = [networkId, notice.id, notice.playerUuid.toLowerCase(), nowMs, notice.message];
    await this.db.run(PG_NOTIFICATION_SQL.insertWithText, values);
  }

  /** The network's unread notices with text created at or after `sinceMs`, oldest first. */
  unreadTextSince(networkId: number, sinceMs: number, limit: number): Promise<UnreadTextNoticeRow[]> {
    return this.db.rows(PG_NOTIFICATION_SQL.unreadTextSince, [networkId, sinceMs, limit]);
  }

  /** Marks the player's notifications acknowledged; ids not theirs (or unknown) are counted, not failed. */
  async acknowledge(
    networkId: number,
    playerUuid: string,
    ids: readonly string[],
    at: number,
  ): Promise<{ known: number; unknown: number }> {
    const distinct = [...new Set(ids)];
    const known = await this.db.run(PG_NOTIFICATION_SQL.acknowledge, [
      networkId,
      playerUuid.toLowerCase(),
      distinct,
      at,
    ]);
    return { known, unknown: distinct.length - known };
  }

  /** undefined when there is no notification with this id. */
  async acknowledgedAt(networkId: number, id: string): Promise<number | null | undefined> {
    return (await this.db.row<{ acknowledged_at: number | null }>(PG_NOTIFICATION_SQL.byId, [networkId, id]))
      ?.acknowledged_at;
  }
}
