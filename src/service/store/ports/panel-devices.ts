/** A browser that logged in to an account before: its device cookie holds the token whose hash is kept. */
export interface PanelDevice {
  accountId: number;
  createdAt: number;
  expiresAt: number;
}

/** Devices that logged in to an account (login throttling trusts them), kept by the hash of their token only. */
export interface PanelDeviceStorePort {
  remember(tokenHash: Buffer, device: PanelDevice): Promise<void>;
  /** The device unless it expired by `nowMs`. */
  find(tokenHash: Buffer, nowMs: number): Promise<PanelDevice | undefined>;
  /** Forgets the account's devices but the newest `keep`. */
  forgetOlder(accountId: number, keep: number): Promise<void>;
  /** Deletes at most 500 devices expired by `nowMs`; returns how many. */
  pruneExpired(nowMs: number): Promise<number>;
}
