import type { Db } from '../../db/open-db.js';
import type { PunishmentRow } from './punishment-rows.js';

export interface PlayerMatch {
  uuid: string;
  name: string;
  lastLoginAt: number | null;
}

/** Beyond every character, so `prefix + HIGHEST` bounds the names starting with `prefix`. */
const HIGHEST = '\u{10FFFF}';

/** The statements of {@link PlayerLookup}; test/service/query-plans.test.ts checks each one's plan. */
export const PLAYER_LOOKUP_SQL = {
  namesFrom: `SELECT uuid, name, last_login_at AS lastLoginAt FROM service_players
       WHERE network_id = @networkId AND name >= @low COLLATE NOCASE AND name < @high COLLATE NOCASE
       ORDER BY name COLLATE NOCASE LIMIT @limit`,
  // The player's rows through their index, then sorted: walking the network's newest-first index
  // until a player's rows turn up (what the planner picks for the LIMIT) reads most of a network.
  punishmentsOf: `SELECT * FROM service_punishments INDEXED BY service_punishments_target_status
       WHERE network_id = ? AND target_uuid = ? ORDER BY created_at DESC LIMIT ?`,
} as const;

/** The panel's player search and a player's full history. */
export class PlayerLookup {
  private readonly namesFrom;
  private readonly punishmentsOfStatement;

  constructor(db: Db) {
    this.namesFrom = db.prepare<{ networkId: number; low: string; high: string; limit: number }, PlayerMatch>(
      PLAYER_LOOKUP_SQL.namesFrom,
    );
    this.punishmentsOfStatement = db.prepare<[number, string, number], PunishmentRow>(PLAYER_LOOKUP_SQL.punishmentsOf);
  }

  /** Players whose name starts with `prefix` (any case), by name. */
  namesStartingWith(networkId: number, prefix: string, limit: number): PlayerMatch[] {
    return this.namesFrom.all({ networkId, low: prefix, high: `${prefix}${HIGHEST}`, limit });
  }

  /** A player's punishments of every status, newest first. */
  punishmentsOf(networkId: number, uuid: string, limit: number): PunishmentRow[] {
    return this.punishmentsOfStatement.all(networkId, uuid.toLowerCase(), limit);
  }
}
