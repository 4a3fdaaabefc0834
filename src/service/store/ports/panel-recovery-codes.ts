/** An account's two-factor recovery codes, kept by their SHA-256 only, each accepted once. */
export interface PanelRecoveryCodeStorePort {
  /** The account's codes become these, the old ones (used or not) gone. */
  replace(accountId: number, codeHashes: readonly Buffer[], nowMs: number): Promise<void>;
  /** Spends the code: true once, false when it is not the account's or was used. */
  use(accountId: number, codeHash: Buffer, nowMs: number): Promise<boolean>;
  countUnused(accountId: number): Promise<number>;
  removeAllOf(accountId: number): Promise<void>;
}
