export type { PlayerMatch } from '../player-lookup.js';

import type { PlayerMatch } from '../player-lookup.js';
import type { PunishmentRow } from '../punishment-rows.js';

/** The panel's player search and a player's whole history. */
export interface PlayerLookupPort {
  /** Players whose name starts with `prefix` in any case, by name. */
  namesStartingWith(networkId: number, prefix: string, limit: number): Promise<PlayerMatch[]>;
  /** A player's punishments of every status, newest first. */
  punishmentsOf(networkId: number, uuid: string, limit: number): Promise<PunishmentRow[]>;
}
