import type { IdempotentCreation } from '../idempotency-keys.js';
import { type PgDb, pgStatements } from './pool.js';

/** The statements of {@link PgIdempotencyKeyStore}. */
export const PG_IDEMPOTENCY_KEY_SQL = pgStatements('idempotencyKeys', {
  record: `INSERT INTO service_idempotency_keys (network_id, idempotency_key, request_hash, punishment_id, created_at)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (network_id, idempotency_key) DO UPDATE SET request_hash = excluded.request_hash,
      punishment_id = excluded.punishment_id, created_at = excluded.created_at`,
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

  async record(networkId: number, key: string, creation: IdempotentCreation, createdAt: number): Promise<void> {
    const values = [networkId, key, creation.requestHash, creation.punishmentId, createdAt];
    await this.db.run(PG_IDEMPOTENCY_KEY_SQL.record, values);
  }

  /** Forgets keys older than `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number> {
    return this.db.run(PG_IDEMPOTENCY_KEY_SQL.prune, [beforeMs]);
  }
}
