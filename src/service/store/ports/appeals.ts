export type { Appeal, AppealStatus } from '../appeal-rows.js';
export type { AppealDecision, NewAppeal } from '../appeals.js';

import type { Appeal } from '../appeal-rows.js';
import type { AppealDecision, NewAppeal } from '../appeals.js';

/** Appeals of punishments, each stored with the appeal ticket it opened (only the link token's hash). */
export interface AppealStorePort {
  /** Opens the appeal and its ticket atomically; false (nothing stored) when the punishment has an open appeal. */
  open(appeal: NewAppeal): Promise<boolean>;
  openAppealOf(networkId: number, punishmentId: string): Promise<string | undefined>;
  byToken(token: string): Promise<Appeal | undefined>;
  byTicket(networkId: number, ticketId: string): Promise<Appeal | undefined>;
  /** Records the decision of an open appeal; false when it was not open. */
  decide(decision: AppealDecision): Promise<boolean>;
}
