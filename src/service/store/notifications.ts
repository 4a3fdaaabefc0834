import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type {
  AcknowledgeCount,
  NotificationStorePort,
  PendingNotificationRow,
  UnreadTextNoticeRow,
} from './ports/notifications.js';

type Notice = { networkId: number; id: string; playerUuid: string; nowMs: number };
type OfPlayer = { networkId: number; playerUuid: string };

/** The statements of {@link NotificationStore}; the query-plan tests check each one's plan. */
export const NOTIFICATION_STATEMENTS = {
  insert: prepare<Notice & { message: string | null }, never>('notifications.insert', ({ db }, p) =>
    db
      .insertInto('service_notifications')
      .values({ network_id: p.networkId, id: p.id, player_uuid: p.playerUuid, created_at: p.nowMs, message: p.message })
      .onConflict((conflict) => conflict.doNothing()),
  ),
  // Acknowledging twice keeps the first time; ids not the player's are not touched.
  acknowledge: prepare<OfPlayer & { ids: string[]; at: number }, never>(
    'notifications.acknowledge',
    ({ db, choices }, p) =>
      db
        .updateTable('service_notifications')
        .set((update) => ({ acknowledged_at: update.fn.coalesce('acknowledged_at', raw<number>`${p.at}`) }))
        .where('network_id', '=', p.networkId)
        .where('player_uuid', '=', p.playerUuid)
        .where(choices.inList(raw.ref('id'), p.ids)),
  ),
  byId: prepare<{ networkId: number; id: string }, { acknowledged_at: number | null }>(
    'notifications.byId',
    ({ db }, p) =>
      db
        .selectFrom('service_notifications')
        .select('acknowledged_at')
        .where('network_id', '=', p.networkId)
        .where('id', '=', p.id),
  ),
  pendingFor: prepare<OfPlayer, PendingNotificationRow>('notifications.pendingFor', ({ db }, p) =>
    db
      .selectFrom('service_notifications as n')
      .leftJoin('service_punishments as p', (join) =>
        join.onRef('p.network_id', '=', 'n.network_id').onRef('p.id', '=', 'n.id'),
      )
      .select(['n.id', 'n.created_at', 'p.type_ordinal', 'p.reason', 'n.message'])
      .where('n.network_id', '=', p.networkId)
      .where('n.player_uuid', '=', p.playerUuid)
      .where('n.acknowledged_at', 'is', null)
      .orderBy('n.created_at'),
  ),
  // The conditions of the partial index service_notifications_unread_text.
  unreadTextSince: prepare<{ networkId: number; sinceMs: number; limit: number }, UnreadTextNoticeRow>(
    'notifications.unreadTextSince',
    ({ db }, p) =>
      db
        .selectFrom('service_notifications')
        .select(['id', 'player_uuid', raw<string>`message`.as('message'), 'created_at'])
        .where('network_id', '=', p.networkId)
        .where('message', 'is not', null)
        .where('acknowledged_at', 'is', null)
        .where('created_at', '>=', p.sinceMs)
        .orderBy('created_at')
        .orderBy('id')
        .limit(p.limit),
  ),
};

const q = NOTIFICATION_STATEMENTS;

/**
 * One pending notification per punishment, for its target (its id is the punishment id), and
 * notices with their own text, such as a staff reply to a player's ticket (its id is the reply id).
 */
export class NotificationStore implements NotificationStorePort {
  constructor(private readonly sql: SqlContext) {}

  pendingFor(networkId: number, playerUuid: string): Promise<PendingNotificationRow[]> {
    return q.pendingFor.all(this.sql, { networkId, playerUuid: playerUuid.toLowerCase() });
  }

  async create(networkId: number, id: string, playerUuid: string, nowMs: number): Promise<void> {
    await q.insert.run(this.sql, { networkId, id, playerUuid: playerUuid.toLowerCase(), nowMs, message: null });
  }

  async createWithText(
    networkId: number,
    notice: { id: string; playerUuid: string; message: string },
    nowMs: number,
  ): Promise<void> {
    await q.insert.run(this.sql, { networkId, ...notice, playerUuid: notice.playerUuid.toLowerCase(), nowMs });
  }

  unreadTextSince(networkId: number, sinceMs: number, limit: number): Promise<UnreadTextNoticeRow[]> {
    return q.unreadTextSince.all(this.sql, { networkId, sinceMs, limit });
  }

  async acknowledge(
    networkId: number,
    playerUuid: string,
    ids: readonly string[],
    at: number,
  ): Promise<AcknowledgeCount> {
    const distinct = [...new Set(ids)];
    const known = await q.acknowledge.run(this.sql, {
      networkId,
      playerUuid: playerUuid.toLowerCase(),
      ids: distinct,
      at,
    });
    return { known, unknown: distinct.length - known };
  }

  async acknowledgedAt(networkId: number, id: string): Promise<number | null | undefined> {
    return (await q.byId.first(this.sql, { networkId, id }))?.acknowledged_at;
  }
}
