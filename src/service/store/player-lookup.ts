import type { Db } from '../../db/open-db.js';
import type { PunishmentRow } from './punishment-rows.js';

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
  // What the player page shows beside each punishment, for all of a player's punishments at once.
  acknowledgementsOfTarget: `SELECT a.punishment_id AS punishmentId, s.name AS server, a.executed_at AS executedAt,
         a.success, a.error_message AS errorMessage
       FROM service_acknowledgements a JOIN service_servers s ON s.id = a.server_id
       WHERE a.network_id = @networkId AND a.punishment_id IN (SELECT id FROM service_punishments
         WHERE network_id = @networkId AND target_uuid = @uuid)
       ORDER BY a.id LIMIT @limit`,
  evidenceOfTarget: `SELECT punishment_id AS punishmentId, issuer_name AS issuerName, evidence_url AS evidenceUrl,
         created_at AS createdAt
       FROM service_evidence WHERE network_id = @networkId AND punishment_id IN (SELECT id FROM service_punishments
         WHERE network_id = @networkId AND target_uuid = @uuid)
       ORDER BY id LIMIT @limit`,
  pardonsOfTarget: `SELECT punishment_id AS punishmentId, issuer_name AS issuerName, reason, pardoned_at AS pardonedAt
       FROM service_pardons WHERE network_id = @networkId AND punishment_id IN (SELECT id FROM service_punishments
         WHERE network_id = @networkId AND target_uuid = @uuid AND status = 'pardoned')
       LIMIT @limit`,
} as const;

type TargetQuery = { networkId: number; uuid: string; limit: number };

/** The panel's player search and a player's full history. */
export class PlayerLookup {
  private readonly namesFrom;
  private readonly punishmentsOfStatement;
  private readonly acknowledgementsStatement;
  private readonly evidenceStatement;
  private readonly pardonsStatement;

  constructor(db: Db) {
    this.namesFrom = db.prepare<{ networkId: number; low: string; high: string; limit: number }, PlayerMatch>(
      PLAYER_LOOKUP_SQL.namesFrom,
    );
    this.punishmentsOfStatement = db.prepare<[number, string, number], PunishmentRow>(PLAYER_LOOKUP_SQL.punishmentsOf);
    this.acknowledgementsStatement = db.prepare<TargetQuery, TargetAcknowledgement>(
      PLAYER_LOOKUP_SQL.acknowledgementsOfTarget,
    );
    this.evidenceStatement = db.prepare<TargetQuery, TargetEvidence>(PLAYER_LOOKUP_SQL.evidenceOfTarget);
    this.pardonsStatement = db.prepare<TargetQuery, TargetPardon>(PLAYER_LOOKUP_SQL.pardonsOfTarget);
  }

  /** Acknowledgements of the player's punishments, oldest first (at most `limit`). */
  acknowledgementsOf(networkId: number, uuid: string, limit: number): TargetAcknowledgement[] {
    return this.acknowledgementsStatement.all({ networkId, uuid: uuid.toLowerCase(), limit });
  }

  /** Evidence of the player's punishments, oldest first (at most `limit`). */
  evidenceOf(networkId: number, uuid: string, limit: number): TargetEvidence[] {
    return this.evidenceStatement.all({ networkId, uuid: uuid.toLowerCase(), limit });
  }

  /** Pardons of the player's pardoned punishments (at most `limit`). */
  pardonsOf(networkId: number, uuid: string, limit: number): TargetPardon[] {
    return this.pardonsStatement.all({ networkId, uuid: uuid.toLowerCase(), limit });
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
