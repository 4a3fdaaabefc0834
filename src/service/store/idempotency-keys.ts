import type { Db } from '../../db/open-db.js';

export interface IdempotentCreation {
  /** SHA-256 of the request body that first used the key. */
  requestHash: string;
  punishmentId: string;
}

/** The statements of {@link IdempotencyKeyStore}; test/service/query-plans.test.ts checks each one's plan. */
export const IDEMPOTENCY_KEY_SQL = {
  record: `INSERT OR REPLACE INTO service_idempotency_keys (network_id, idempotency_key, request_hash, punishment_id, created_at)
       VALUES (@networkId, @key, @requestHash, @punishmentId, @createdAt)`,
  find: `SELECT request_hash AS requestHash, punishment_id AS punishmentId FROM service_idempotency_keys
       WHERE network_id = ? AND idempotency_key = ? AND created_at >= ?`,
  prune: 'DELETE FROM service_idempotency_keys WHERE created_at < ?',
} as const;

/**
 * Creations made with an `Idempotency-Key` (IETF httpapi idempotency-key draft), per network:
 * the same key within the retention answers the original punishment instead of creating another.
 */
export class IdempotencyKeyStore {
  private readonly insertStatement;
  private readonly findStatement;
  private readonly pruneStatement;

  constructor(db: Db) {
    this.insertStatement = db.prepare<{
      networkId: number;
      key: string;
      requestHash: string;
      punishmentId: string;
      createdAt: number;
    }>(IDEMPOTENCY_KEY_SQL.record);
    this.findStatement = db.prepare<[number, string, number], IdempotentCreation>(IDEMPOTENCY_KEY_SQL.find);
    this.pruneStatement = db.prepare<[number]>(IDEMPOTENCY_KEY_SQL.prune);
  }

  /** The creation recorded under `key` since `sinceMs`, if any. */
  find(networkId: number, key: string, sinceMs: number): IdempotentCreation | undefined {
    return this.findStatement.get(networkId, key, sinceMs);
  }

  record(networkId: number, key: string, creation: IdempotentCreation, createdAt: number): void {
    this.insertStatement.run({ networkId, key, ...creation, createdAt });
  }

  /** Forgets keys older than `beforeMs`; returns how many. */
  prune(beforeMs: number): number {
    return this.pruneStatement.run(beforeMs).changes;
  }
}
