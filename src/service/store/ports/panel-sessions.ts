/** `full` opens the panel; `code` has passed the password and waits for the second factor. */
export type SessionStage = 'full' | 'code';

/** A live session: whose it is, which network it looks at, until when it holds, how far its login got. */
export interface PanelSession {
  accountId: number;
  networkId: number;
  createdAt: number;
  expiresAt: number;
  stage: SessionStage;
}

/** Panel sessions, kept by the hash of their id only. */
export interface PanelSessionStorePort {
  create(idHash: Buffer, session: PanelSession): Promise<void>;
  /** The session unless it expired by `nowMs`. */
  find(idHash: Buffer, nowMs: number): Promise<PanelSession | undefined>;
  remove(idHash: Buffer): Promise<void>;
  removeAllOf(accountId: number): Promise<void>;
  switchNetwork(idHash: Buffer, networkId: number): Promise<void>;
  /** Deletes at most 500 sessions expired by `nowMs`; returns how many. */
  pruneExpired(nowMs: number): Promise<number>;
}
