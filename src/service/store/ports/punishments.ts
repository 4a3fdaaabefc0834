import type { PastPunishment } from '../../rules/preview.js';
import type { NewPunishment, PunishmentRow, RenderableRow } from '../punishment-rows.js';

export type { PastPunishment } from '../../rules/preview.js';
export type { NewPunishment, PunishmentRow, RenderableRow } from '../punishment-rows.js';
export { toInsertParams } from '../punishment-rows.js';

/** Punishments of all networks; every read is scoped to one network. */
export interface PunishmentStorePort {
  /** Inserts unless a punishment with this id exists in the network; true when inserted. */
  insert(record: NewPunishment): Promise<boolean>;
  find(networkId: number, id: string): Promise<PunishmentRow | undefined>;
  /** Created at or after `sinceMs`, newest first (ties: last inserted first), at most `limit`. */
  recent(networkId: number, sinceMs: number, limit: number): Promise<PunishmentRow[]>;
  /** The network's active punishments, newest first. */
  active(networkId: number): Promise<PunishmentRow[]>;
  /** Every active punishment of one player, however old, newest first. */
  activeFor(networkId: number, playerUuid: string): Promise<RenderableRow[]>;
  /** The active punishments of one player that carry `data` (only those can be alt-blocking), newest first. */
  activeWithDataFor(networkId: number, playerUuid: string): Promise<PunishmentRow[]>;
  historyOf(networkId: number, playerUuid: string): Promise<PastPunishment[]>;
  /** True when the status actually changed. */
  setStatus(networkId: number, id: string, status: string, nowMs: number): Promise<boolean>;
  /** Sets `started` the first time only; true when it was set now. */
  markStarted(networkId: number, id: string, startedAt: number, nowMs: number): Promise<boolean>;
}
