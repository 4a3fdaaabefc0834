import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type {
  PlayerLookupPort,
  PlayerMatch,
  TargetAcknowledgement,
  TargetEvidence,
  TargetPardon,
} from './ports/player-lookup.js';
import type { PunishmentRow } from './punishment-rows.js';
import { PUNISHMENT_COLUMNS } from './punishments.js';

/** Beyond every character, so `prefix + HIGHEST` bounds the names starting with `prefix`. */
const HIGHEST = '\u{10FFFF}';

type Target = { networkId: number; uuid: string; limit: number };

/** The statements of {@link PlayerLookup}; the query-plan tests check each one's plan. */
export const PLAYER_LOOKUP_STATEMENTS = {
  namesFrom: prepare<{ networkId: number; low: string; high: string; limit: number }, PlayerMatch>(
    'playerLookup.namesFrom',
    ({ db, choices }, p) =>
      db
        .selectFrom('service_players')
        .select(['uuid', 'name', 'last_login_at as lastLoginAt'])
        .where('network_id', '=', p.networkId)
        .where(choices.rangeFoldedName('name'), '>=', choices.rangeFoldedValue(p.low))
        .where(choices.rangeFoldedName('name'), '<', choices.rangeFoldedValue(p.high))
        .orderBy(choices.rangeFoldedName('name'))
        .limit(p.limit),
  ),
  // The player's rows through their index, then sorted: walking the network's newest-first index
  // until a player's rows turn up (what SQLite's planner picks for the LIMIT) reads most of a network.
  punishmentsOf: prepare<Target, PunishmentRow>('playerLookup.punishmentsOf', ({ db, choices }, p) =>
    db
      .selectFrom(choices.throughIndex('service_punishments', 'service_punishments_target_status'))
      .select(PUNISHMENT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('target_uuid', '=', p.uuid)
      .orderBy('created_at', 'desc')
      .orderBy(choices.insertionOrder, 'desc')
      .limit(p.limit),
  ),
  // What the player page shows beside each punishment, for all of a player's punishments at once.
  acknowledgementsOfTarget: prepare<Target, TargetAcknowledgement>(
    'playerLookup.acknowledgementsOfTarget',
    ({ db }, p) =>
      db
        .selectFrom('service_acknowledgements as a')
        .innerJoin('service_servers as s', 's.id', 'a.server_id')
        .select([
          'a.punishment_id as punishmentId',
          's.name as server',
          'a.executed_at as executedAt',
          (eb) => eb.cast<number>('a.success', 'integer').as('success'),
          'a.error_message as errorMessage',
        ])
        .where('a.network_id', '=', p.networkId)
        .where('a.punishment_id', 'in', punishmentsOfTarget(db, p))
        .orderBy('a.id')
        .limit(p.limit),
  ),
  evidenceOfTarget: prepare<Target, TargetEvidence>('playerLookup.evidenceOfTarget', ({ db }, p) =>
    db
      .selectFrom('service_evidence')
      .select([
        'punishment_id as punishmentId',
        'issuer_name as issuerName',
        'evidence_url as evidenceUrl',
        'created_at as createdAt',
      ])
      .where('network_id', '=', p.networkId)
      .where('punishment_id', 'in', punishmentsOfTarget(db, p))
      .orderBy('id')
      .limit(p.limit),
  ),
  pardonsOfTarget: prepare<Target, TargetPardon>('playerLookup.pardonsOfTarget', ({ db }, p) =>
    db
      .selectFrom('service_pardons')
      .select(['punishment_id as punishmentId', 'issuer_name as issuerName', 'reason', 'pardoned_at as pardonedAt'])
      .where('network_id', '=', p.networkId)
      .where('punishment_id', 'in', punishmentsOfTarget(db, p).where('status', '=', raw.lit('pardoned')))
      .limit(p.limit),
  ),
};

/** The ids of the player's punishments, through an index starting (network_id, target_uuid). */
function punishmentsOfTarget(db: SqlContext['db'], p: Omit<Target, 'limit'>) {
  return db
    .selectFrom('service_punishments')
    .select('id')
    .where('network_id', '=', p.networkId)
    .where('target_uuid', '=', p.uuid);
}

const q = PLAYER_LOOKUP_STATEMENTS;

/** The panel's player search and a player's full history. */
export class PlayerLookup implements PlayerLookupPort {
  constructor(private readonly sql: SqlContext) {}

  /** Players whose name starts with `prefix` (any case, ASCII letters folded), by name. */
  namesStartingWith(networkId: number, prefix: string, limit: number): Promise<PlayerMatch[]> {
    return q.namesFrom.all(this.sql, { networkId, low: prefix, high: `${prefix}${HIGHEST}`, limit });
  }

  punishmentsOf(networkId: number, uuid: string, limit: number): Promise<PunishmentRow[]> {
    return q.punishmentsOf.all(this.sql, { networkId, uuid: uuid.toLowerCase(), limit });
  }

  acknowledgementsOf(networkId: number, uuid: string, limit: number): Promise<TargetAcknowledgement[]> {
    return q.acknowledgementsOfTarget.all(this.sql, { networkId, uuid: uuid.toLowerCase(), limit });
  }

  evidenceOf(networkId: number, uuid: string, limit: number): Promise<TargetEvidence[]> {
    return q.evidenceOfTarget.all(this.sql, { networkId, uuid: uuid.toLowerCase(), limit });
  }

  pardonsOf(networkId: number, uuid: string, limit: number): Promise<TargetPardon[]> {
    return q.pardonsOfTarget.all(this.sql, { networkId, uuid: uuid.toLowerCase(), limit });
  }
}
