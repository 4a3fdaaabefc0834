import type { SourceDatabase } from './connection.js';
import { PAGE_ROWS } from './paged.js';
import { keyOf, namesOf } from './player-names.js';
import {
  binaryAddress,
  binaryUuid,
  type PluginKind,
  type PluginPunishment,
  textOr,
  toMs,
} from './plugin-punishment.js';
import type { PluginReader } from './reader.js';

/**
 * LibertyBans 1.1 (`bans-core/src/main/resources/database-migrations`, V2, V4, V40): every
 * punishment is in `{prefix}punishments` (`id, type` 0 ban 1 mute 2 warn 3 kick, `operator`
 * BINARY(16), `reason, start, end` in epoch seconds, `end` 0 permanent) and `{prefix}history`
 * (`id, victim`); `{prefix}victims` (`id, type` 0 player 1 address 2 both, `uuid`, `address`
 * VARBINARY); those in force also in `{prefix}bans`, `mutes` or `warns`; `{prefix}undone`
 * (`id, operator, reason, time`) says who lifted one and why; `{prefix}names` (`uuid, name, updated`).
 */
const KINDS: PluginKind[] = ['ban', 'mute', 'warning', 'kick'];
const CONSOLE = '00000000000000000000000000000000';

type Row = Record<string, unknown>;

async function inForce(db: SourceDatabase, prefix: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const table of ['bans', 'mutes', 'warns']) {
    const rows = await db.query<Row>(`SELECT id FROM ${db.quote(`${prefix}${table}`)}`);
    for (const row of rows) ids.add(String(row.id));
  }
  return ids;
}

function pageQuery(db: SourceDatabase, prefix: string, after: string | null): string {
  const t = (name: string) => db.quote(`${prefix}${name}`);
  const q = db.quote;
  return [
    `SELECT p.id AS id, p.${q('type')} AS kind, v.${q('type')} AS victim_type, v.uuid AS victim_uuid,`,
    `v.address AS victim_address, p.operator AS operator, p.reason AS reason, p.${q('start')} AS start_s,`,
    `p.${q('end')} AS end_s, u.operator AS undo_operator, u.reason AS undo_reason, u.${q('time')} AS undo_s`,
    `FROM ${t('punishments')} p JOIN ${t('history')} h ON h.id = p.id JOIN ${t('victims')} v ON v.id = h.victim`,
    `LEFT JOIN ${t('undone')} u ON u.id = p.id`,
    after === null ? '' : 'WHERE p.id > ?',
    `ORDER BY p.id LIMIT ${PAGE_ROWS}`,
  ].join(' ');
}

function operatorName(operator: unknown, names: Map<string, string>): string {
  const uuid = binaryUuid(operator);
  if (uuid === null || uuid === CONSOLE) return 'Console';
  return names.get(keyOf(operator)) ?? uuid;
}

function toPunishment(row: Row, table: string, active: Set<string>, names: Map<string, string>): PluginPunishment {
  const victimType = Number(row.victim_type);
  const end = toMs(row.end_s);
  const undone = row.undo_operator != null;
  return {
    id: `libertybans-${String(row.id)}`,
    kind: KINDS[Number(row.kind)] ?? 'ban',
    targetUuid: victimType === 1 ? null : binaryUuid(row.victim_uuid),
    targetName: victimType === 1 ? null : (names.get(keyOf(row.victim_uuid)) ?? null),
    ipAddress: victimType === 0 ? null : binaryAddress(row.victim_address),
    reason: textOr(row.reason, ''),
    issuerName: operatorName(row.operator, names),
    createdMs: toMs(row.start_s) * 1000,
    endMs: end > 0 ? end * 1000 : null,
    active: active.has(String(row.id)) && !undone,
    pardon: undone
      ? {
          issuerName: operatorName(row.undo_operator, names),
          reason: textOr(row.undo_reason, ''),
          dateMs: toMs(row.undo_s) * 1000,
        }
      : null,
    where: `${table} #${String(row.id)}`,
  };
}

export const libertyBansReader: PluginReader = {
  defaultPrefix: 'libertybans_',
  tables: (prefix) => [`${prefix}history`],
  async *read(db, prefix) {
    const active = await inForce(db, prefix);
    const table = `${prefix}punishments`;
    let after: string | null = null;
    for (;;) {
      const page: Row[] = await db.query<Row>(pageQuery(db, prefix, after), after === null ? [] : [after]);
      if (page.length === 0) return;
      const names = await namesOf(
        db,
        `${prefix}names`,
        page.flatMap((row) => [row.victim_uuid, row.operator, row.undo_operator]),
        { id: 'uuid', name: 'name', order: 'updated' },
      );
      for (const row of page) yield toPunishment(row, table, active, names);
      after = String(page[page.length - 1]!.id);
      if (page.length < PAGE_ROWS) return;
    }
  },
};
