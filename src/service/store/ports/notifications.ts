export type { PendingNotificationRow } from '../notifications.js';

import type { PendingNotificationRow } from '../notifications.js';

/** How many of the ids given to acknowledge were the player's. */
export interface AcknowledgeCount {
  known: number;
  unknown: number;
}

/** One pending notification per punishment, for its target; its id is the punishment id. */
export interface NotificationStorePort {
  /** Not yet acknowledged, oldest first. */
  pendingFor(networkId: number, playerUuid: string): Promise<PendingNotificationRow[]>;
  /** Creates it unless one with this id exists. */
  create(networkId: number, id: string, playerUuid: string, nowMs: number): Promise<void>;
  /** Marks the player's notifications acknowledged (the first time counts); ids not theirs (or unknown) are counted, not failed. */
  acknowledge(networkId: number, playerUuid: string, ids: readonly string[], at: number): Promise<AcknowledgeCount>;
  /** undefined when there is no notification with this id. */
  acknowledgedAt(networkId: number, id: string): Promise<number | null | undefined>;
}
