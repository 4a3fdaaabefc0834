import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { AcknowledgementRecord, AcknowledgementView, EvidenceView } from '../enforcement.js';

/** The statements of {@link PgEnforcementStore}. */
export const PG_ENFORCEMENT_SQL = pgStatements('enforcement', {
  insertAcknowledgement: `INSERT INTO service_acknowledgements
      (network_id, punishment_id, server_id, player_uuid, executed_at, success, error_message, received_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
  acknowledgementsOf: `SELECT a.executed_at AS "executedAt", a.success, a.error_message AS "errorMessage",
      s.name AS server
    FROM service_acknowledgements a JOIN service_servers s ON s.id = a.server_id
    WHERE a.network_id = $1 AND a.punishment_id = $2 ORDER BY a.id`,
  insertEvidence: `INSERT INTO service_evidence (network_id, punishment_id, issuer_name, evidence_url, created_at)
    VALUES ($1, $2, $3, $4, $5)`,
  evidenceOf: `SELECT issuer_name AS "issuerName", evidence_url AS "evidenceUrl", created_at AS "createdAt"
    FROM service_evidence WHERE network_id = $1 AND punishment_id = $2 ORDER BY id`,
});

/** What servers reported about punishments, on PostgreSQL: acknowledgements and evidence. */
export class PgEnforcementStore {
  constructor(private readonly db: PgDb) {}

  async recordAcknowledgement(record: AcknowledgementRecord): Promise<void> {
    await this.db.run(PG_ENFORCEMENT_SQL.insertAcknowledgement, [
      record.networkId,
      record.punishmentId,
      record.serverId,
      record.playerUuid.toLowerCase(),
      record.executedAt,
      record.success,
      record.errorMessage ?? null,
      record.receivedAt,
    ]);
  }

  acknowledgements(networkId: number, punishmentId: string): Promise<AcknowledgementView[]> {
    return this.db.rows(PG_ENFORCEMENT_SQL.acknowledgementsOf, [networkId, punishmentId]);
  }

  async addEvidence(networkId: number, punishmentId: string, issuerName: string, url: string, nowMs: number) {
    await this.db.run(PG_ENFORCEMENT_SQL.insertEvidence, [networkId, punishmentId, issuerName, url, nowMs]);
  }

  evidence(networkId: number, punishmentId: string): Promise<EvidenceView[]> {
    return this.db.rows(PG_ENFORCEMENT_SQL.evidenceOf, [networkId, punishmentId]);
  }
}
