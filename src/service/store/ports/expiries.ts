import type { PunishmentRow } from '../punishment-rows.js';

/** Temporary punishments whose time is over and whose end was not yet announced (`punishment.expired`). */
export interface ExpiryStorePort {
  /**
   * Active punishments with a duration >= 0 and a `started_at`, not yet announced, whose
   * `started_at + duration <= nowMs`; the earliest end first, at most `limit`.
   */
  endedUnannounced(nowMs: number, limit: number): Promise<PunishmentRow[]>;
  /** Records that the punishment's end was announced (or skipped) at `nowMs`; it is not returned again. */
  markAnnounced(networkId: number, id: string, nowMs: number): Promise<void>;
}
