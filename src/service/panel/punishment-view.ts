import type { Punishment } from '../../contract/schemas.js';
import type { ModerationRules } from '../rules/catalogue.js';
import { findTypeRule } from '../rules/catalogue.js';
import type { PunishmentRow } from '../store/punishment-rows.js';

/** A punishment as the panel shows it (and the live stream sends it): text only, dates as ISO. */
export interface PunishmentView {
  id: string;
  targetUuid: string;
  targetName: string;
  issuerName: string;
  type: string;
  action: string;
  reason: string;
  /** `active`, `expired` (active but its time is over), `pardoned`, or another stored status. */
  status: string;
  /** `permanent`, or a length like `7d 12h`. */
  length: string;
  createdAt: string;
  startedAt: string | null;
  endsAt: string | null;
}

const UNITS: [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
];

/** `7d 12h`, `30m`, `permanent`; a kick's `0` is `-`. */
export function lengthText(durationMs: number): string {
  if (durationMs < 0) return 'permanent';
  if (durationMs === 0) return '-';
  const parts: string[] = [];
  let rest = durationMs;
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return parts.join(' ') || '<1s';
}

const iso = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString());

function statusAt(status: string, durationMs: number, startedAt: number | null, nowMs: number): string {
  if (status !== 'active' || durationMs < 0 || startedAt === null) return status;
  return startedAt + durationMs <= nowMs ? 'expired' : status;
}

/** The view of a stored row. */
export function viewOfRow(row: PunishmentRow, rules: ModerationRules, nowMs: number): PunishmentView {
  const rule = findTypeRule(rules, row.type_ordinal);
  return {
    id: row.id,
    targetUuid: row.target_uuid,
    targetName: row.target_name,
    issuerName: row.issuer_name,
    type: rule?.title ?? `type ${row.type_ordinal}`,
    action: rule?.action ?? 'unknown',
    reason: row.reason,
    status: statusAt(row.status, row.duration, row.started_at, nowMs),
    length: lengthText(row.duration),
    createdAt: iso(row.created_at) ?? '',
    startedAt: iso(row.started_at),
    endsAt: row.duration >= 0 && row.started_at !== null ? iso(row.started_at + row.duration) : null,
  };
}

/** The view of a punishment the change feed carries. */
export function viewOfPunishment(punishment: Punishment, rules: ModerationRules, nowMs: number): PunishmentView {
  const rule = findTypeRule(rules, punishment.typeOrdinal);
  const startedMs = punishment.started ? Date.parse(punishment.started) : null;
  const started = punishment.started ?? null;
  return {
    id: punishment.id,
    targetUuid: punishment.targetUuid,
    targetName: punishment.targetName,
    issuerName: punishment.issuerName,
    type: rule?.title ?? `type ${punishment.typeOrdinal}`,
    action: rule?.action ?? 'unknown',
    reason: punishment.reason,
    status: statusAt(punishment.status, punishment.duration, startedMs, nowMs),
    length: lengthText(punishment.duration),
    createdAt: punishment.createdAt,
    startedAt: started,
    endsAt: punishment.duration >= 0 && startedMs !== null ? iso(startedMs + punishment.duration) : null,
  };
}
