import { prepare, type SqlContext } from '../db/prepared.js';
import type { AddressRetentionPort } from './ports/address-retention.js';

/** The statements of {@link AddressRetentionStore}: batches bounded by LIMIT, run by the address pruner off the request path. */
export const ADDRESS_RETENTION_STATEMENTS = {
  deleteHistory: prepare<{ beforeMs: number; limit: number }, never>('addressRetention.deleteHistory', ({ db }, p) =>
    db
      .deleteFrom('service_player_ips')
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('network_id', 'ip', 'uuid'),
          'in',
          selectFrom('service_player_ips')
            .select(['network_id', 'ip', 'uuid'])
            .where('last_seen_at', '<', p.beforeMs)
            .limit(p.limit)
            .$asTuple('network_id', 'ip', 'uuid'),
        ),
      ),
  ),
  clearLastAddress: prepare<{ limit: number }, never>('addressRetention.clearLastAddress', ({ db }, p) =>
    db
      .updateTable('service_players')
      .set({ last_ip: null })
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('network_id', 'uuid'),
          'in',
          selectFrom('service_players as player')
            .select(['player.network_id', 'player.uuid'])
            .where('player.last_ip', 'is not', null)
            .where(({ not, exists, selectFrom: from }) =>
              not(
                exists(
                  from('service_player_ips as seen')
                    .select((seen) => seen.lit(1).as('one'))
                    .whereRef('seen.network_id', '=', 'player.network_id')
                    .whereRef('seen.ip', '=', 'player.last_ip')
                    .whereRef('seen.uuid', '=', 'player.uuid'),
                ),
              ),
            )
            .limit(p.limit)
            .$asTuple('network_id', 'uuid'),
        ),
      ),
  ),
};

const q = ADDRESS_RETENTION_STATEMENTS;

/**
 * Deletes login addresses past their retention, a bounded batch at a time: history rows last seen
 * before the cut-off, then each player's "last address" once its history row is gone.
 */
export class AddressRetentionStore implements AddressRetentionPort {
  constructor(private readonly sql: SqlContext) {}

  deleteHistoryBefore(beforeMs: number, limit: number): Promise<number> {
    return q.deleteHistory.run(this.sql, { beforeMs, limit });
  }

  clearForgottenLastAddresses(limit: number): Promise<number> {
    return q.clearLastAddress.run(this.sql, { limit });
  }
}
