import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { PlayerMatch, TargetAcknowledgement, TargetEvidence, TargetPardon } from '../player-lookup.js';
import type { PunishmentRow } from '../punishment-rows.js';
import { PUNISHMENT_COLUMNS } from './punishment-columns.js';

/** Beyond every character, so `prefix + HIGHEST` bounds the names starting with `prefix`. */
const HIGHEST = '\u{10FFFF}';

/**
 * `lower()` under the "C" collation folds ASCII letters only and compares bytes: SQLite's NOCASE,
 * in any database locale. Read through service_players_name_prefix (schema version 10).
 */
const NAME_KEY = 'lower(name COLLATE "C")';

/** The player's punishment ids, through (network_id, target_uuid, created_at, row_id). */
const PUNISHMENTS_OF_TARGET = 'SELECT id FROM service_punishments WHERE network_id = $1 AND target_uuid = $2';

/** The statements of {@link PgPlayerLookup}. */
export const PG_PLAYER_LOOKUP_SQL = pgStatements('playerLookup', {
  namesFrom: `SELECT uuid, name, last_login_at AS "lastLoginAt" FROM service_players
       WHERE network_id = $1 AND ${NAME_KEY} >= lower($2::text COLLATE "C") AND ${NAME_KEY} < lower($3::text COLLATE "C")
       ORDER BY ${NAME_KEY} LIMIT $4`,
  punishmentsOf: `SELECT ${PUNISHMENT_COLUMNS} FROM service_punishments
       WHERE network_id = $1 AND target_uuid = $2 ORDER BY created_at DESC, row_id DESC LIMIT $3`,
  acknowledgementsOfTarget: `SELECT a.punishment_id AS "punishmentId", s.name AS server, a.executed_at AS "executedAt",
         a.success::integer AS success, a.error_message AS "errorMessage"
       FROM service_acknowledgements a JOIN service_servers s ON s.id = a.server_id
       WHERE a.network_id = $1 AND a.punishment_id IN (${PUNISHMENTS_OF_TARGET})
       ORDER BY a.id LIMIT $3`,
  evidenceOfTarget: `SELECT punishment_id AS "punishmentId", issuer_name AS "issuerName", evidence_url AS "evidenceUrl",
         created_at AS "createdAt"
       FROM service_evidence WHERE network_id = $1 AND punishment_id IN (${PUNISHMENTS_OF_TARGET})
       ORDER BY id LIMIT $3`,
  pardonsOfTarget: `SELECT punishment_id AS "punishmentId", issuer_name AS "issuerName", reason, pardoned_at AS "pardonedAt"
       FROM service_pardons WHERE network_id = $1 AND punishment_id IN (${PUNISHMENTS_OF_TARGET} AND status = 'pardoned')
       LIMIT $3`,
});

/** The panel's player search and a player's full history, on PostgreSQL. */
export class PgPlayerLookup {
  constructor(private readonly db: PgDb) {}

  /** Players whose name starts with `prefix` (any case, ASCII), by name. */
  namesStartingWith(networkId: number, prefix: string, limit: number): Promise<PlayerMatch[]> {
    return this.db.rows(PG_PLAYER_LOOKUP_SQL.namesFrom, [networkId, prefix, `${prefix}${HIGHEST}`, limit]);
  }

  /** A player's punishments of every status, newest first. */
  punishmentsOf(networkId: number, uuid: string, limit: number): Promise<PunishmentRow[]> {
    return this.db.rows(PG_PLAYER_LOOKUP_SQL.punishmentsOf, [networkId, uuid.toLowerCase(), limit]);
  }

  /** Acknowledgements of the player's punishments, oldest first (at most `limit`). */
  acknowledgementsOf(networkId: number, uuid: string, limit: number): Promise<TargetAcknowledgement[]> {
    return this.db.rows(PG_PLAYER_LOOKUP_SQL.acknowledgementsOfTarget, [networkId, uuid.toLowerCase(), limit]);
  }

  /** Evidence of the player's punishments, oldest first (at most `limit`). */
  evidenceOf(networkId: number, uuid: string, limit: number): Promise<TargetEvidence[]> {
    return this.db.rows(PG_PLAYER_LOOKUP_SQL.evidenceOfTarget, [networkId, uuid.toLowerCase(), limit]);
  }

  /** Pardons of the player's pardoned punishments (at most `limit`). */
  pardonsOf(networkId: number, uuid: string, limit: number): Promise<TargetPardon[]> {
    return this.db.rows(PG_PLAYER_LOOKUP_SQL.pardonsOfTarget, [networkId, uuid.toLowerCase(), limit]);
  }
}
