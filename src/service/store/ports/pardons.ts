export interface PardonRecord {
  networkId: number;
  punishmentId: string;
  issuerName: string;
  reason: string;
  /** The server whose key asked for it; null for a pardon from the panel (an accepted appeal). */
  serverId: number | null;
  pardonedAt: number;
}

export interface PardonView {
  issuerName: string;
  reason: string;
  server: string | null;
  pardonedAt: number;
}

/** Who pardoned a punishment, when and why (the pardon extension); one per punishment. */
export interface PardonStorePort {
  /** Records the first pardon of a punishment; a later one changes nothing. True when recorded now. */
  record(pardon: PardonRecord): Promise<boolean>;
  find(networkId: number, punishmentId: string): Promise<PardonView | undefined>;
}
