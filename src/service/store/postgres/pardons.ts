import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { PardonRecord, PardonView } from '../pardons.js';

/** The statements of {@link PgPardonStore}. */
export const PG_PARDON_SQL = pgStatements('pardons', {
  insert: `INSERT INTO service_pardons (network_id, punishment_id, issuer_name, reason, server_id, pardoned_at)
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
  byPunishment: `SELECT p.issuer_name AS "issuerName", p.reason, s.name AS server, p.pardoned_at AS "pardonedAt"
    FROM service_pardons p LEFT JOIN service_servers s ON s.id = p.server_id
    WHERE p.network_id = $1 AND p.punishment_id = $2`,
});

/** Who pardoned a punishment, when and why (the pardon extension), on PostgreSQL; one per punishment. */
export class PgPardonStore {
  constructor(private readonly db: PgDb) {}

  /** Records the first pardon of a punishment; a later one changes nothing. */
  async record(pardon: PardonRecord): Promise<boolean> {
    const values = [
      pardon.networkId,
      pardon.punishmentId,
      pardon.issuerName,
      pardon.reason,
      pardon.serverId,
      pardon.pardonedAt,
    ];
    return (await this.db.run(PG_PARDON_SQL.insert, values)) === 1;
  }

  find(networkId: number, punishmentId: string): Promise<PardonView | undefined> {
    return this.db.row(PG_PARDON_SQL.byPunishment, [networkId, punishmentId]);
  }
}
