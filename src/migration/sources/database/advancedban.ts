import type { SourceDatabase } from './connection.js';
import { pagedRows } from './paged.js';
import { type PluginKind, type PluginPunishment, textOr, toMs } from './plugin-punishment.js';
import type { PluginReader } from './reader.js';

/**
 * AdvancedBan 2.3 (`core/.../utils/SQLQuery.java`): `Punishments` holds what is in force and
 * `PunishmentHistory` every punishment ever given, both `id, name, uuid, reason, operator,
 * punishmentType, start, end, calculation` (epoch ms, `end` -1 permanent; `uuid` is undashed, or
 * the address for IP bans). Lifting a punishment deletes it from `Punishments` and records
 * neither who nor why.
 */
const TYPES: Record<string, { kind: PluginKind; ip: boolean }> = {
  BAN: { kind: 'ban', ip: false },
  TEMP_BAN: { kind: 'ban', ip: false },
  IP_BAN: { kind: 'ban', ip: true },
  TEMP_IP_BAN: { kind: 'ban', ip: true },
  MUTE: { kind: 'mute', ip: false },
  TEMP_MUTE: { kind: 'mute', ip: false },
  WARNING: { kind: 'warning', ip: false },
  TEMP_WARNING: { kind: 'warning', ip: false },
  KICK: { kind: 'kick', ip: false },
};

/** Issuer and reason of a pardon AdvancedBan did not record. */
export const ADVANCEDBAN_UNKNOWN_PARDON = {
  issuerName: 'Unknown',
  reason: 'Lifted in AdvancedBan, which records neither who nor why',
} as const;
export const ADVANCEDBAN_NOTE = 'AdvancedBan note (not a punishment)';

type Row = Record<string, unknown>;
const keyOf = (row: Row) => `${String(row.uuid)}|${String(row.start)}|${String(row.punishmentType)}`;

async function inForce(db: SourceDatabase, table: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const page of pagedRows<Row>(db, table, `id, uuid, ${db.quote('start')}, punishmentType`)) {
    for (const row of page) keys.add(keyOf(row));
  }
  return keys;
}

function toPunishment(row: Row, table: string, active: Set<string>, nowMs: number): PluginPunishment | string {
  const type = TYPES[String(row.punishmentType)];
  if (!type) return row.punishmentType === 'NOTE' ? ADVANCEDBAN_NOTE : `AdvancedBan type ${String(row.punishmentType)}`;
  const target = typeof row.uuid === 'string' ? row.uuid : null;
  const end = toMs(row.end);
  const endMs = end === -1 || !Number.isFinite(end) ? null : end;
  const stillListed = active.has(keyOf(row));
  const lifted = type.kind !== 'kick' && !stillListed && (endMs === null || endMs > nowMs);
  return {
    id: `advancedban-history-${String(row.id)}`,
    kind: type.kind,
    targetUuid: type.ip ? null : target,
    targetName: typeof row.name === 'string' ? row.name : null,
    ipAddress: type.ip ? target : null,
    reason: textOr(row.reason, ''),
    issuerName: textOr(row.operator, 'CONSOLE'),
    createdMs: toMs(row.start),
    endMs,
    active: stillListed,
    pardon: lifted ? { ...ADVANCEDBAN_UNKNOWN_PARDON, dateMs: nowMs } : null,
    where: `${table} #${String(row.id)}`,
  };
}

export const advancedBanReader: PluginReader = {
  defaultPrefix: '',
  tables: (prefix) => [`${prefix}PunishmentHistory`],
  async *read(db, prefix, nowMs) {
    const active = await inForce(db, `${prefix}Punishments`);
    const table = `${prefix}PunishmentHistory`;
    const columns = ['id', 'name', 'uuid', 'reason', 'operator', 'punishmentType', db.quote('start'), db.quote('end')];
    for await (const page of pagedRows<Row>(db, table, columns.join(', '))) {
      for (const row of page) {
        const mapped = toPunishment(row, table, active, nowMs);
        if (typeof mapped === 'string') yield { skip: mapped, where: `${table} #${String(row.id)}` };
        else yield mapped;
      }
    }
  },
};
