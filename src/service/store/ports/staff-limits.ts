/** What a panel role may issue; null: no limit of that kind. */
export interface RoleLimits {
  /** The longest ban (ms) its holders may issue. */
  banMaxMs: number | null;
  /** The longest mute (ms) its holders may issue. */
  muteMaxMs: number | null;
  /** How many punishments each holder may issue in any hour. */
  hourlyMax: number | null;
}

export interface StoredRoleLimits extends RoleLimits {
  role: string;
}

/** A punishment one issuer gave, as the rollback lists it. */
export interface IssuedPunishment {
  id: string;
  targetUuid: string;
  targetName: string;
  typeOrdinal: number;
  reason: string;
  duration: number;
  status: string;
  createdAt: number;
}

/** The longest rollback listing: a bigger range is rolled back in several runs. */
export const ROLLBACK_PAGE = 500;

/** Limits per panel role, and what one issuer issued (the hourly limit, rollback). */
export interface StaffLimitStorePort {
  /** Sets the role's limits, replacing any it had. */
  save(networkId: number, role: string, limits: RoleLimits, nowMs: number): Promise<void>;
  find(networkId: number, role: string): Promise<RoleLimits | undefined>;
  /** Every role with limits, by name (at most 300). */
  list(networkId: number): Promise<StoredRoleLimits[]>;
  /** Punishments issued under `issuerName` (exact) created at or after `sinceMs`. */
  countIssuedSince(networkId: number, issuerName: string, sinceMs: number): Promise<number>;
  /** Punishments issued under `issuerName` (exact) created in [fromMs, toMs], oldest first, at most {@link ROLLBACK_PAGE}. */
  issuedBetween(networkId: number, issuerName: string, fromMs: number, toMs: number): Promise<IssuedPunishment[]>;
}
