/** A frozen player as stored. */
export interface Freeze {
  networkId: number;
  /** Lower case. */
  playerUuid: string;
  playerName: string;
  reason: string;
  issuerName: string;
  /** The server whose key froze the player; null when frozen from the panel. */
  serverName: string | null;
  frozenAt: number;
}

/** Frozen players, one row each while frozen. */
export interface FreezeStorePort {
  /** Freezes a player; false when they were frozen already (the first freeze is kept). */
  freeze(freeze: Freeze): Promise<boolean>;
  /** False when the player was not frozen. */
  unfreeze(networkId: number, playerUuid: string): Promise<boolean>;
  find(networkId: number, playerUuid: string): Promise<Freeze | undefined>;
  /** The network's frozen players, newest first, at most `limit`. */
  list(networkId: number, limit: number): Promise<Freeze[]>;
  count(networkId: number): Promise<number>;
}
