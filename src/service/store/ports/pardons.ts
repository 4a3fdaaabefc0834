export type { PardonRecord, PardonView } from '../pardons.js';

import type { PardonRecord, PardonView } from '../pardons.js';

/** Who pardoned a punishment, when and why (the pardon extension); one per punishment. */
export interface PardonStorePort {
  /** Records the first pardon of a punishment; a later one changes nothing. True when recorded now. */
  record(pardon: PardonRecord): Promise<boolean>;
  find(networkId: number, punishmentId: string): Promise<PardonView | undefined>;
}
