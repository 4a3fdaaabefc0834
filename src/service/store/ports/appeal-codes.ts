import type { AppealCode, NewAppealCode } from '../appeal-code-rows.js';

/** Live codes one player keeps for one punishment; a new one beyond this replaces the oldest. */
export const MAX_CODES_PER_HOLDER = 10;

export type { AppealCode, NewAppealCode } from '../appeal-code-rows.js';

/** One-time appeal codes: stored by hash, used once, until they expire. */
export interface AppealCodeStorePort {
  /** Stores a new code (forgetting the holder's used, expired and oldest live ones beyond 10); false when its hash is taken. */
  issue(code: NewAppealCode): Promise<boolean>;
  byHash(networkId: number, codeHash: Buffer): Promise<AppealCode | undefined>;
  /** Marks a live code used; false when it was used already, has expired, or is unknown. */
  use(networkId: number, codeHash: Buffer, nowMs: number): Promise<boolean>;
}
