/** One address a player logged in from. */
export interface PlayerIp {
  ip: string;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** An account seen on an address. */
export interface AccountOnIp {
  uuid: string;
  lastSeenAt: number;
}

/** Which addresses each player logged in from, and when (the login check records them). */
export interface PlayerIpStorePort {
  record(networkId: number, uuid: string, ip: string, at: number): Promise<void>;
  /** The player's addresses seen since `sinceMs`, most recent first. */
  addressesOf(networkId: number, uuid: string, sinceMs: number): Promise<PlayerIp[]>;
  /** Accounts seen on `ip` since `sinceMs`, at most `limit` of them. */
  accountsOn(networkId: number, ip: string, sinceMs: number, limit: number): Promise<AccountOnIp[]>;
}
