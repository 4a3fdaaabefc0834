/** One step of a ladder: the warning that makes `warnings` live warnings issues this punishment. */
export interface LadderStep {
  warnings: number;
  typeOrdinal: number;
  /** Milliseconds; -1 permanent. */
  duration: number;
}

/** A network's warning ladder, its steps by rising number of warnings. */
export interface WarningLadder {
  name: string;
  /** How long a warning counts towards the ladder after it was given. */
  warningLifetimeMs: number;
  steps: LadderStep[];
  updatedAt: number;
}

/** Warning ladders (one per network) and what they count. */
export interface WarningLadderStorePort {
  /** The network's ladder; undefined when it has none. */
  ladderOf(networkId: number): Promise<WarningLadder | undefined>;
  /** Sets the network's ladder, replacing every step it had, in one transaction. */
  replace(networkId: number, ladder: WarningLadder): Promise<void>;
  /** Removes the network's ladder; false when it had none. */
  remove(networkId: number): Promise<boolean>;
  /**
   * Holds the player's ladder until the transaction ends: a second warning of the same player
   * waits here until the first one's transaction committed, so it counts that warning (PostgreSQL;
   * SQLite has one writer already).
   */
  holdPlayer(networkId: number, playerUuid: string): Promise<void>;
  /** The player's warnings given since `sinceMs` that still stand (pardoned ones no longer do). */
  liveWarnings(networkId: number, playerUuid: string, sinceMs: number): Promise<number>;
}
