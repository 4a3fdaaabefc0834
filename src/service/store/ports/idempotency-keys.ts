export interface IdempotentCreation {
  /** SHA-256 of the request body that first used the key. */
  requestHash: string;
  punishmentId: string;
}

/** What claiming a key gave: the key is this request's now, or an earlier creation holds it. */
export type IdempotencyClaim = { isClaimed: true } | { isClaimed: false; earlier: IdempotentCreation };

/** Creations made with an `Idempotency-Key`, per network. */
export interface IdempotencyKeyStorePort {
  /** The creation recorded under `key` since `sinceMs`, if any. */
  find(networkId: number, key: string, sinceMs: number): Promise<IdempotentCreation | undefined>;
  /** Records (or replaces) a finished creation under `key`: copies and fixtures. Creations claim. */
  record(networkId: number, key: string, creation: IdempotentCreation, createdAt: number): Promise<void>;
  /**
   * Takes `key` for the creation about to be made in this transaction, unless a creation since
   * `sinceMs` holds it: then that creation. A claim of the same key by a transaction still open
   * elsewhere (another request, another instance) waits until it commits or rolls back, so two
   * requests never both create. Call `complete` in the same transaction.
   */
  claim(
    networkId: number,
    key: string,
    requestHash: string,
    createdAt: number,
    sinceMs: number,
  ): Promise<IdempotencyClaim>;
  /** Names what the claim of `key` created (in the claim's transaction). */
  complete(networkId: number, key: string, punishmentId: string): Promise<void>;
  /** Forgets keys older than `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number>;
}
