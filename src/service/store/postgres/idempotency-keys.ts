import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { IdempotencyClaim, IdempotentCreation } from '../idempotency-keys.js';

/** The statements of {@link PgIdempotencyKeyStore}. */
export const PG_IDEMPOTENCY_KEY_SQL = pgStatements('idempotencyKeys', {
  record: `INSERT INTO service_idempotency_keys (network_id, idempotency_key, request_hash, punishment_id, created_at)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (network_id, idempotency_key) DO UPDATE SET request_hash = excluded.request_hash,
      punishment_id = excluded.punishment_id, created_at = excluded.created_at`,
  // A key another open transaction inserted makes this wait for its end (the unique index): then the
  // key is ours (it rolled back), or its creation, committed, is the answer. An expired key is taken over.
  claim: `INSERT INTO service_idempotency_keys (network_id, idempotency_key, request_hash, punishment_id, created_at)
    VALUES ($1, $2, $3, '', $4)
    ON CONFLICT (network_id, idempotency_key) DO UPDATE SET request_hash = excluded.request_hash,
      punishment_id = '', created_at = excluded.created_at
    WHERE service_idempotency_keys.created_at < $5`,
  complete: 'UPDATE service_idempotency_keys SET punishment_id = $3 WHERE network_id = $1 AND idempotency_key = $2',
  find: `SELECT request_hash AS "requestHash", punishment_id AS "punishmentId" FROM service_idempotency_keys
    WHERE network_id = $1 AND idempotency_key = $2 AND created_at >= $3`,
  prune: 'DELETE FROM service_idempotency_keys WHERE created_at < $1',
});

/** Creations made with an `Idempotency-Key`, per network, on PostgreSQL. */
export class PgIdempotencyKeyStore {
  constructor(private readonly db: PgDb) {}

  /** The creation recorded under `key` since `sinceMs`, if any. */
  find(networkId: number, key: string, sinceMs: number): Promise<IdempotentCreation | undefined> {
    return this.db.row(PG_IDEMPOTENCY_KEY_SQL.find, [networkId, key, sinceMs]);
  }

  /** Records (or replaces) a finished creation under `key`: copies and fixtures. Creations {@link claim}. */
  async record(networkId: number, key: string, creation: IdempotentCreation, createdAt: number): Promise<void> {
    const values = [networkId, key, creation.requestHash, creation.punishmentId, createdAt];
    await this.db.run(PG_IDEMPOTENCY_KEY_SQL.record, values);
  }

  async claim(
    networkId: number,
    key: string,
    requestHash: string,
    createdAt: number,
    sinceMs: number,
  ): Promise<IdempotencyClaim> {
    if ((await this.db.run(PG_IDEMPOTENCY_KEY_SQL.claim, [networkId, key, requestHash, createdAt, sinceMs])) === 1) {
      return { isClaimed: true };
    }
    const earlier = await this.find(networkId, key, sinceMs);
    if (!earlier) throw new Error(`idempotency key ${key} was neither claimed nor found (pruned meanwhile?)`);
    return { isClaimed: false, earlier };
  }

  async complete(networkId: number, key: string, punishmentId: string): Promise<void> {
    await this.db.run(PG_IDEMPOTENCY_KEY_SQL.complete, [networkId, key, punishmentId]);
  }

  /** Forgets keys older than `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number> {
    return this.db.run(PG_IDEMPOTENCY_KEY_SQL.prune, [beforeMs]);
  }
}
