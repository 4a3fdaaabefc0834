import { prepare, type SqlContext } from '../db/prepared.js';
import type { IdempotencyClaim, IdempotencyKeyStorePort, IdempotentCreation } from './ports/idempotency-keys.js';

type OfKey = { networkId: number; key: string };

/** The statements of {@link IdempotencyKeyStore}; the query-plan tests check each one's plan. */
export const IDEMPOTENCY_KEY_STATEMENTS = {
  record: prepare<OfKey & IdempotentCreation & { createdAt: number }, never>('idempotencyKeys.record', ({ db }, p) =>
    db
      .insertInto('service_idempotency_keys')
      .values({
        network_id: p.networkId,
        idempotency_key: p.key,
        request_hash: p.requestHash,
        punishment_id: p.punishmentId,
        created_at: p.createdAt,
      })
      .onConflict((conflict) =>
        conflict.columns(['network_id', 'idempotency_key']).doUpdateSet((update) => ({
          request_hash: update.ref('excluded.request_hash'),
          punishment_id: update.ref('excluded.punishment_id'),
          created_at: update.ref('excluded.created_at'),
        })),
      ),
  ),
  // PostgreSQL: a key another open transaction inserted makes this wait for its end (the unique
  // index): then the key is ours (it rolled back), or its creation, committed, is the answer. SQLite
  // has one writer. A key older than the retention that was not pruned yet is taken over as new.
  claim: prepare<OfKey & { requestHash: string; createdAt: number; sinceMs: number }, never>(
    'idempotencyKeys.claim',
    ({ db }, p) =>
      db
        .insertInto('service_idempotency_keys')
        .values({
          network_id: p.networkId,
          idempotency_key: p.key,
          request_hash: p.requestHash,
          punishment_id: '',
          created_at: p.createdAt,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['network_id', 'idempotency_key'])
            .doUpdateSet((update) => ({
              request_hash: update.ref('excluded.request_hash'),
              punishment_id: '',
              created_at: update.ref('excluded.created_at'),
            }))
            .where('service_idempotency_keys.created_at', '<', p.sinceMs),
        ),
  ),
  complete: prepare<OfKey & { punishmentId: string }, never>('idempotencyKeys.complete', ({ db }, p) =>
    db
      .updateTable('service_idempotency_keys')
      .set({ punishment_id: p.punishmentId })
      .where('network_id', '=', p.networkId)
      .where('idempotency_key', '=', p.key),
  ),
  find: prepare<OfKey & { sinceMs: number }, IdempotentCreation>('idempotencyKeys.find', ({ db }, p) =>
    db
      .selectFrom('service_idempotency_keys')
      .select(['request_hash as requestHash', 'punishment_id as punishmentId'])
      .where('network_id', '=', p.networkId)
      .where('idempotency_key', '=', p.key)
      .where('created_at', '>=', p.sinceMs),
  ),
  prune: prepare<{ beforeMs: number }, never>('idempotencyKeys.prune', ({ db }, p) =>
    db.deleteFrom('service_idempotency_keys').where('created_at', '<', p.beforeMs),
  ),
};

const q = IDEMPOTENCY_KEY_STATEMENTS;

/**
 * Creations made with an `Idempotency-Key` (IETF httpapi idempotency-key draft), per network:
 * the same key within the retention answers the original punishment instead of creating another.
 */
export class IdempotencyKeyStore implements IdempotencyKeyStorePort {
  constructor(private readonly sql: SqlContext) {}

  find(networkId: number, key: string, sinceMs: number): Promise<IdempotentCreation | undefined> {
    return q.find.first(this.sql, { networkId, key, sinceMs });
  }

  async record(networkId: number, key: string, creation: IdempotentCreation, createdAt: number): Promise<void> {
    await q.record.run(this.sql, { networkId, key, ...creation, createdAt });
  }

  async claim(
    networkId: number,
    key: string,
    requestHash: string,
    createdAt: number,
    sinceMs: number,
  ): Promise<IdempotencyClaim> {
    if ((await q.claim.run(this.sql, { networkId, key, requestHash, createdAt, sinceMs })) === 1) {
      return { isClaimed: true };
    }
    const earlier = await this.find(networkId, key, sinceMs);
    if (!earlier) throw new Error(`idempotency key ${key} was neither claimed nor found (pruned meanwhile?)`);
    return { isClaimed: false, earlier };
  }

  async complete(networkId: number, key: string, punishmentId: string): Promise<void> {
    await q.complete.run(this.sql, { networkId, key, punishmentId });
  }

  prune(beforeMs: number): Promise<number> {
    return q.prune.run(this.sql, { beforeMs });
  }
}
