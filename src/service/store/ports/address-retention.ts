/**
 * Deletes login addresses past their retention, a bounded batch at a time: history rows last seen
 * before the cut-off, then each player's "last address" once its history row is gone.
 */
export interface AddressRetentionPort {
  /** Deletes at most `limit` history rows (service_player_ips) last seen before `beforeMs`; returns how many. */
  deleteHistoryBefore(beforeMs: number, limit: number): Promise<number>;
  /** Clears at most `limit` players' last address that is no longer in the history; returns how many. */
  clearForgottenLastAddresses(limit: number): Promise<number>;
}
