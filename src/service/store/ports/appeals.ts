import { createHash } from 'node:crypto';
import type { Appeal, AppealStatus } from '../appeal-rows.js';
import type { NewTicket } from './tickets.js';

/** Only the hash of a player's private link is stored, so a copy of the database opens no appeal. */
export const hashAppealToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export interface NewAppeal {
  networkId: number;
  punishmentId: string;
  playerName: string;
  token: string;
  ticket: NewTicket;
}

/** Who marked a punishment unappealable, and when. */
export interface UnappealableMark {
  markedBy: string;
  markedAt: number;
}

export interface AppealDecision {
  networkId: number;
  ticketId: string;
  status: Exclude<AppealStatus, 'open'>;
  answer: string;
  decidedBy: string;
  nowMs: number;
}

export type { Appeal, AppealStatus } from '../appeal-rows.js';

/** Appeals of punishments, each stored with the appeal ticket it opened (only the link token's hash). */
export interface AppealStorePort {
  /** Opens the appeal and its ticket atomically; false (nothing stored) when the punishment has an open appeal. */
  open(appeal: NewAppeal): Promise<boolean>;
  openAppealOf(networkId: number, punishmentId: string): Promise<string | undefined>;
  byToken(token: string): Promise<Appeal | undefined>;
  byTicket(networkId: number, ticketId: string): Promise<Appeal | undefined>;
  /** Records the decision of an open appeal; false when it was not open. */
  decide(decision: AppealDecision): Promise<boolean>;
  /** When the punishment's last denied appeal was decided; undefined when none was denied. */
  lastDeniedAt(networkId: number, punishmentId: string): Promise<number | undefined>;
  /** Who marked the punishment unappealable; undefined when it may be appealed. */
  unappealable(networkId: number, punishmentId: string): Promise<UnappealableMark | undefined>;
  /** Marks the punishment unappealable (`mark`) or appealable again (null); false when that changed nothing. */
  setUnappealable(
    networkId: number,
    punishmentId: string,
    mark: { markedBy: string; markedAtMs: number } | null,
  ): Promise<boolean>;
  /** The ids of a player's punishments marked unappealable. */
  unappealableOfTarget(networkId: number, targetUuid: string): Promise<string[]>;
  /** Hours a punishment waits after a denied appeal before it may be appealed again (undefined: no such network). */
  cooldownHours(networkId: number): Promise<number | undefined>;
  setCooldownHours(networkId: number, hours: number): Promise<void>;
}
