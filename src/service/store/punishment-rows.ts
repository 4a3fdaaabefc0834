import type { Punishment, Severity } from '../../contract/schemas.js';
import type { PunishmentsTable } from '../db/tables.js';
import { checkDateMs, toIso, UnrenderableDateError } from './dates.js';
import { ipBanKeyOfData } from './ip-ban-keys.js';

export { toIso } from './dates.js';

/** A punishment row as stored (the columns the store reads back). */
export type PunishmentRow = Omit<PunishmentsTable, 'severity' | 'ip_ban_key' | 'expiry_announced_at'> & {
  severity: Severity | null;
};

/** The columns a punishment is rendered from (the contract's Punishment): what the login check reads. */
export type RenderableRow = Pick<
  PunishmentRow,
  | 'network_id'
  | 'id'
  | 'target_uuid'
  | 'target_name'
  | 'issuer_name'
  | 'type_ordinal'
  | 'reason'
  | 'duration'
  | 'status'
  | 'data'
  | 'created_at'
  | 'started_at'
>;

/** What a new punishment needs; optional parts default as docs/contract/service-semantics.md says. */
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

// Every field of the contract's Punishment but the dates, and `data` (an extension) when it has any.
function undatedFields(row: RenderableRow) {
  return {
    id: row.id,
    targetUuid: row.target_uuid,
    targetName: row.target_name,
    issuerName: row.issuer_name,
    typeOrdinal: row.type_ordinal,
    reason: row.reason,
    duration: row.duration,
    status: row.status,
    ...(row.data === null ? {} : { data: JSON.parse(row.data) as Record<string, unknown> }),
  };
}

/**
 * The contract's Punishment plus the `started` extension; throws {@link UnrenderableDateError}
 * for a row whose dates no Date holds (only an older version could have stored one).
 */
export function toPunishment(row: RenderableRow): Punishment {
  return {
    ...undatedFields(row),
    createdAt: toIso(row.created_at, 'createdAt'),
    started: row.started_at === null ? null : toIso(row.started_at, 'started'),
  };
}

const isoOrProblem = (ms: number, field: string, problems: string[]): string | null => {
  try {
    return toIso(ms, field);
  } catch (error) {
    if (!(error instanceof UnrenderableDateError)) throw error;
    problems.push(error.message);
    return null;
  }
};

/** For the admin: the punishment even when a stored date cannot be shown (null, named in `dateProblems`). */
export function toAdminPunishment(row: PunishmentRow) {
  const problems: string[] = [];
  return {
    ...undatedFields(row),
    createdAt: isoOrProblem(row.created_at, 'createdAt', problems),
    started: row.started_at === null ? null : isoOrProblem(row.started_at, 'started', problems),
    severity: row.severity,
    ...(problems.length > 0 ? { dateProblems: problems } : {}),
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
    ipBanKey: ipBanKeyOfData(record.data),
    notes: json(record.notes),
    attachedTicketIds: json(record.attachedTicketIds),
    createdAt: checkDateMs(record.createdAt, 'createdAt'),
    startedAt: record.startedAt == null ? null : checkDateMs(record.startedAt, 'started'),
  };
}
