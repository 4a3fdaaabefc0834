import { prepare, type SqlContext } from '../db/prepared.js';
import type {
  AcknowledgementRecord,
  AcknowledgementView,
  EnforcementStorePort,
  EvidenceView,
} from './ports/enforcement.js';

type OfPunishment = { networkId: number; punishmentId: string };

/** The statements of {@link EnforcementStore}; the query-plan tests check each one's plan. */
export const ENFORCEMENT_STATEMENTS = {
  // The first acknowledgement of a (punishment, server, player) is kept.
  insertAcknowledgement: prepare<Omit<AcknowledgementRecord, 'errorMessage'> & { errorMessage: string | null }, never>(
    'enforcement.insertAcknowledgement',
    ({ db }, p) =>
      db
        .insertInto('service_acknowledgements')
        .values({
          network_id: p.networkId,
          punishment_id: p.punishmentId,
          server_id: p.serverId,
          player_uuid: p.playerUuid,
          executed_at: p.executedAt,
          success: p.success,
          error_message: p.errorMessage,
          received_at: p.receivedAt,
        })
        .onConflict((conflict) => conflict.doNothing()),
  ),
  acknowledgementsOf: prepare<OfPunishment, Omit<AcknowledgementView, 'success'> & { success: boolean | number }>(
    'enforcement.acknowledgementsOf',
    ({ db }, p) =>
      db
        .selectFrom('service_acknowledgements as a')
        .innerJoin('service_servers as s', 's.id', 'a.server_id')
        .select(['a.executed_at as executedAt', 'a.success', 'a.error_message as errorMessage', 's.name as server'])
        .where('a.network_id', '=', p.networkId)
        .where('a.punishment_id', '=', p.punishmentId)
        .orderBy('a.id'),
  ),
  insertEvidence: prepare<OfPunishment & { issuerName: string; url: string; nowMs: number }, never>(
    'enforcement.insertEvidence',
    ({ db }, p) =>
      db.insertInto('service_evidence').values({
        network_id: p.networkId,
        punishment_id: p.punishmentId,
        issuer_name: p.issuerName,
        evidence_url: p.url,
        created_at: p.nowMs,
      }),
  ),
  evidenceOf: prepare<OfPunishment, EvidenceView>('enforcement.evidenceOf', ({ db }, p) =>
    db
      .selectFrom('service_evidence')
      .select(['issuer_name as issuerName', 'evidence_url as evidenceUrl', 'created_at as createdAt'])
      .where('network_id', '=', p.networkId)
      .where('punishment_id', '=', p.punishmentId)
      .orderBy('id'),
  ),
};

const q = ENFORCEMENT_STATEMENTS;

/** What servers reported about punishments: acknowledgements and evidence. */
export class EnforcementStore implements EnforcementStorePort {
  constructor(private readonly sql: SqlContext) {}

  async recordAcknowledgement(record: AcknowledgementRecord): Promise<void> {
    const playerUuid = record.playerUuid.toLowerCase();
    await q.insertAcknowledgement.run(this.sql, { ...record, playerUuid, errorMessage: record.errorMessage ?? null });
  }

  async acknowledgements(networkId: number, punishmentId: string): Promise<AcknowledgementView[]> {
    const rows = await q.acknowledgementsOf.all(this.sql, { networkId, punishmentId });
    return rows.map((row) => ({ ...row, success: Boolean(row.success) }));
  }

  async addEvidence(networkId: number, punishmentId: string, issuerName: string, url: string, nowMs: number) {
    await q.insertEvidence.run(this.sql, { networkId, punishmentId, issuerName, url, nowMs });
  }

  evidence(networkId: number, punishmentId: string): Promise<EvidenceView[]> {
    return q.evidenceOf.all(this.sql, { networkId, punishmentId });
  }
}
