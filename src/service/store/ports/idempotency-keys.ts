export type { IdempotentCreation } from '../idempotency-keys.js';

import type { IdempotentCreation } from '../idempotency-keys.js';

/** Creations made with an `Idempotency-Key`, per network. */
export interface IdempotencyKeyStorePort {
  /** The creation recorded under `key` since `sinceMs`, if any. */
  find(networkId: number, key: string, sinceMs: number): Promise<IdempotentCreation | undefined>;
  /** Records (or replaces) the creation under `key`. */
  record(networkId: number, key: string, creation: IdempotentCreation, createdAt: number): Promise<void>;
  /** Forgets keys older than `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number>;
}
