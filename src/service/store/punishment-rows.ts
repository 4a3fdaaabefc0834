import type { Punishment, Severity } from '../../api/schemas.js';

/** A punishment row as stored. */
export interface PunishmentRow {
  network_id: number;
  id: string;
  target_uuid: string;
  target_name: string;
  issuer_name: string;
  issuer_id: string | null;
  type_ordinal: number;
  reason: string;
  duration: number;
  severity: Severity | null;
  status: string;
  data: string | null;
  notes: string | null;
  attached_ticket_ids: string | null;
  created_at: number;
  started_at: number | null;
  updated_at: number;
}

/** What a new punishment needs; optional parts default as service-semantics.md says. */
export interface NewPunishment {
  networkId: number;
  id: string;
  targetUuid: string;
  targetName: string;
  issuerName: string;
  issuerId?: string;
  typeOrdinal: number;
  reason: string;
  duration: number;
  severity?: Severity;
  status: string;
  data?: Record<string, unknown>;
  notes?: string[];
  attachedTicketIds?: string[];
  createdAt: number;
  startedAt?: number | null;
}

export const toIso = (ms: number) => new Date(ms).toISOString();

/** The contract's Punishment plus the `started` extension. */
export function toPunishment(row: PunishmentRow): Punishment {
  return {
    id: row.id,
    targetUuid: row.target_uuid,
    targetName: row.target_name,
    issuerName: row.issuer_name,
    typeOrdinal: row.type_ordinal,
    reason: row.reason,
    duration: row.duration,
    createdAt: toIso(row.created_at),
    status: row.status,
    started: row.started_at === null ? null : toIso(row.started_at),
  };
}

export function toInsertParams(record: NewPunishment) {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  return {
    networkId: record.networkId,
    id: record.id,
    targetUuid: record.targetUuid.toLowerCase(),
    targetName: record.targetName,
    issuerName: record.issuerName,
    issuerId: record.issuerId ?? null,
    typeOrdinal: record.typeOrdinal,
    reason: record.reason,
    duration: record.duration,
    severity: record.severity ?? null,
    status: record.status,
    data: json(record.data),
    notes: json(record.notes),
    attachedTicketIds: json(record.attachedTicketIds),
    createdAt: record.createdAt,
    startedAt: record.startedAt ?? null,
  };
}
