import type { PunishmentRow } from '../punishment-rows.js';

export interface PlayerMatch {
  uuid: string;
  name: string;
  lastLoginAt: number | null;
}

/** An acknowledgement of one of a player's punishments. */
export interface TargetAcknowledgement {
  punishmentId: string;
  server: string;
  executedAt: number;
  success: number;
  errorMessage: string | null;
}

export interface TargetEvidence {
  punishmentId: string;
  issuerName: string;
  evidenceUrl: string;
  createdAt: number;
}

export interface TargetPardon {
  punishmentId: string;
  issuerName: string;
  reason: string;
  pardonedAt: number;
}

/** The panel's player search and a player's whole history. */
export interface PlayerLookupPort {
  /** Players whose name starts with `prefix` in any case, by name. */
  namesStartingWith(networkId: number, prefix: string, limit: number): Promise<PlayerMatch[]>;
  /** A player's punishments of every status, newest first. */
  punishmentsOf(networkId: number, uuid: string, limit: number): Promise<PunishmentRow[]>;
  /** Acknowledgements of all the player's punishments, oldest first. */
  acknowledgementsOf(networkId: number, uuid: string, limit: number): Promise<TargetAcknowledgement[]>;
  /** Evidence of all the player's punishments, oldest first. */
  evidenceOf(networkId: number, uuid: string, limit: number): Promise<TargetEvidence[]>;
  /** Pardons of the player's pardoned punishments. */
  pardonsOf(networkId: number, uuid: string, limit: number): Promise<TargetPardon[]>;
}
