export type { PanelSession, SessionStage } from '../panel-sessions.js';

import type { PanelSession } from '../panel-sessions.js';

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
