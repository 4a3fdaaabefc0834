import type { Db } from '../../db/open-db.js';

export interface IdempotentCreation {
  /** SHA-256 of the request body that first used the key. */
  requestHash: string;
  punishmentId: string;
}

/** What claiming a key gave: the key is this request's now, or an earlier creation holds it. */
export type IdempotencyClaim = { isClaimed: true } | { isClaimed: false; earlier: IdempotentCreation };

/** The statements of {@link IdempotencyKeyStore}; test/service/query-plans.test.ts checks each one's plan. */
export const IDEMPOTENCY_KEY_SQL = {
  record: `INSERT OR REPLACE INTO service_idempotency_keys (network_id, idempotency_key, request_hash, punishment_id, created_at)
       VALUES (@networkId, @key, @requestHash, @punishmentId, @createdAt)`,
  // A key older than the retention that was not pruned yet is taken over as if it were new.
  claim: `INSERT INTO service_idempotency_keys (network_id, idempotency_key, request_hash, punishment_id, created_at)
       VALUES (@networkId, @key, @requestHash, '', @createdAt)
       ON CONFLICT (network_id, idempotency_key) DO UPDATE SET request_hash = excluded.request_hash,
         punishment_id = '', created_at = excluded.created_at
       WHERE service_idempotency_keys.created_at < @sinceMs`,
  complete: `UPDATE service_idempotency_keys SET punishment_id = @punishmentId
       WHERE network_id = @networkId AND idempotency_key = @key`,
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
  private readonly claimStatement;
  private readonly completeStatement;
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
    this.claimStatement = db.prepare<{
      networkId: number;
      key: string;
      requestHash: string;
      createdAt: number;
      sinceMs: number;
    }>(IDEMPOTENCY_KEY_SQL.claim);
    this.completeStatement = db.prepare<{ networkId: number; key: string; punishmentId: string }>(
      IDEMPOTENCY_KEY_SQL.complete,
    );
    this.findStatement = db.prepare<[number, string, number], IdempotentCreation>(IDEMPOTENCY_KEY_SQL.find);
    this.pruneStatement = db.prepare<[number]>(IDEMPOTENCY_KEY_SQL.prune);
  }

  /** The creation recorded under `key` since `sinceMs`, if any. */
  find(networkId: number, key: string, sinceMs: number): IdempotentCreation | undefined {
    return this.findStatement.get(networkId, key, sinceMs);
  }

  /** Records (or replaces) a finished creation under `key`: copies and fixtures. Creations {@link claim}. */
  record(networkId: number, key: string, creation: IdempotentCreation, createdAt: number): void {
    this.insertStatement.run({ networkId, key, ...creation, createdAt });
  }

  /**
   * Takes `key` for the creation about to be made in this transaction, unless a creation since
   * `sinceMs` holds it (then that one). Call {@link complete} in the same transaction.
   */
  claim(networkId: number, key: string, requestHash: string, createdAt: number, sinceMs: number): IdempotencyClaim {
    if (this.claimStatement.run({ networkId, key, requestHash, createdAt, sinceMs }).changes === 1) {
      return { isClaimed: true };
    }
    return { isClaimed: false, earlier: this.find(networkId, key, sinceMs)! };
  }

  /** Names what the claim of `key` created. */
  complete(networkId: number, key: string, punishmentId: string): void {
    this.completeStatement.run({ networkId, key, punishmentId });
  }

  /** Forgets keys older than `beforeMs`; returns how many. */
  prune(beforeMs: number): number {
    return this.pruneStatement.run(beforeMs).changes;
  }
}
