import type { Db } from '../../db/open-db.js';

export interface AcknowledgementRecord {
  networkId: number;
  punishmentId: string;
  serverId: number;
  playerUuid: string;
  executedAt: number;
  success: boolean;
  errorMessage?: string;
  receivedAt: number;
}

export interface AcknowledgementView {
  executedAt: number;
  success: boolean;
  errorMessage: string | null;
  server: string;
}

export interface EvidenceView {
  issuerName: string;
  evidenceUrl: string;
  createdAt: number;
}

/** The statements of {@link EnforcementStore}; test/service/query-plans.test.ts checks each one's plan. */
export const ENFORCEMENT_SQL = {
  insertAcknowledgement: `INSERT OR IGNORE INTO service_acknowledgements
         (network_id, punishment_id, server_id, player_uuid, executed_at, success, error_message, received_at)
       VALUES (@networkId, @punishmentId, @serverId, @playerUuid, @executedAt, @success, @errorMessage, @receivedAt)`,
  acknowledgementsOf: `SELECT a.executed_at AS executedAt, a.success, a.error_message AS errorMessage, s.name AS server
       FROM service_acknowledgements a JOIN service_servers s ON s.id = a.server_id
       WHERE a.network_id = ? AND a.punishment_id = ? ORDER BY a.id`,
  insertEvidence: `INSERT INTO service_evidence (network_id, punishment_id, issuer_name, evidence_url, created_at)
       VALUES (@networkId, @punishmentId, @issuerName, @url, @nowMs)`,
  evidenceOf: `SELECT issuer_name AS issuerName, evidence_url AS evidenceUrl, created_at AS createdAt
       FROM service_evidence WHERE network_id = ? AND punishment_id = ? ORDER BY id`,
} as const;

/** What servers reported about punishments: acknowledgements and evidence. */
export class EnforcementStore {
  private readonly insertAck;
  private readonly acksOf;
  private readonly insertEvidence;
  private readonly evidenceOf;

  constructor(db: Db) {
    this.insertAck = db.prepare<
      Omit<AcknowledgementRecord, 'success' | 'errorMessage'> & { success: number; errorMessage: string | null }
    >(ENFORCEMENT_SQL.insertAcknowledgement);
    this.acksOf = db.prepare<
      [number, string],
      { executedAt: number; success: number; errorMessage: string | null; server: string }
    >(ENFORCEMENT_SQL.acknowledgementsOf);
    this.insertEvidence = db.prepare<{
      networkId: number;
      punishmentId: string;
      issuerName: string;
      url: string;
      nowMs: number;
    }>(ENFORCEMENT_SQL.insertEvidence);
    this.evidenceOf = db.prepare<[number, string], EvidenceView>(ENFORCEMENT_SQL.evidenceOf);
  }

  recordAcknowledgement(record: AcknowledgementRecord): void {
    this.insertAck.run({
      ...record,
      playerUuid: record.playerUuid.toLowerCase(),
      success: record.success ? 1 : 0,
      errorMessage: record.errorMessage ?? null,
    });
  }

  acknowledgements(networkId: number, punishmentId: string): AcknowledgementView[] {
    return this.acksOf.all(networkId, punishmentId).map((row) => ({ ...row, success: row.success === 1 }));
  }

  addEvidence(networkId: number, punishmentId: string, issuerName: string, url: string, nowMs: number): void {
    this.insertEvidence.run({ networkId, punishmentId, issuerName, url, nowMs });
  }

  evidence(networkId: number, punishmentId: string): EvidenceView[] {
    return this.evidenceOf.all(networkId, punishmentId);
  }
}
