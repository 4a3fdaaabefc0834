export interface RoleWeight {
  role: string;
  weight: number;
}

/** Immunity weights: each panel role's, and each player's as the servers last reported it. */
export interface ImmunityStorePort {
  /** Sets the role's weight; 0 removes it. */
  saveRoleWeight(networkId: number, role: string, weight: number, nowMs: number): Promise<void>;
  /** The role's weight; 0 when it has none. */
  roleWeight(networkId: number, role: string): Promise<number>;
  /** Every role with a weight above 0, by name (at most 300). */
  roleWeights(networkId: number): Promise<RoleWeight[]>;
  /** Records the weight a server reported for the player at the login check; 0 removes it. */
  reportPlayerWeight(networkId: number, playerUuid: string, weight: number, nowMs: number): Promise<void>;
  /** The player's last reported weight; 0 when none was reported. */
  playerWeight(networkId: number, playerUuid: string): Promise<number>;
}
