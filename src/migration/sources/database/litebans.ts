import { pagedRows } from './paged.js';
import { namesOf } from './player-names.js';
import { type PluginKind, type PluginPunishment, textOr, toFlag, toMs } from './plugin-punishment.js';
import type { PluginReader } from './reader.js';

/**
 * LiteBans 2.x (the schema its MySQL/MariaDB/PostgreSQL backends create, unchanged since 2.0):
 * `{prefix}bans`, `mutes`, `warnings` and `kicks` share `id, uuid, ip, reason, banned_by_uuid,
 * banned_by_name, time, until, ipban, ipban_wildcard, active` (times in epoch ms, `until` <= 0
 * permanent); the first three add `removed_by_uuid, removed_by_name, removed_by_reason,
 * removed_by_date` (who lifted it; `#expired` when it ran out). `{prefix}history` maps uuid to the
 * names seen (`date, name, uuid, ip`).
 */
const TABLES: { table: string; kind: PluginKind; removable: boolean }[] = [
  { table: 'bans', kind: 'ban', removable: true },
  { table: 'mutes', kind: 'mute', removable: true },
  { table: 'warnings', kind: 'warning', removable: true },
  { table: 'kicks', kind: 'kick', removable: false },
];

const CONSOLE_UUIDS = new Set(['CONSOLE', '[Console]', '#']);
const EXPIRED_MARK = '#expired';

/** `1.2.*.*` as `1.2.0.0/16`; other wildcards are left as they are (and then skipped as unreadable). */
export function wildcardToCidr(ip: string): string {
  const parts = ip.split('.');
  if (parts.length !== 4) return ip;
  const stars = parts.indexOf('*');
  if (stars < 0 || parts.slice(stars).some((part) => part !== '*')) return ip;
  return `${parts.map((part) => (part === '*' ? '0' : part)).join('.')}/${stars * 8}`;
}

type Row = Record<string, unknown>;

function toPunishment(
  row: Row,
  kind: PluginKind,
  table: string,
  prefixed: string,
  names: Map<string, string>,
): PluginPunishment {
  const uuid = typeof row.uuid === 'string' && !CONSOLE_UUIDS.has(row.uuid) ? row.uuid : null;
  const ip = typeof row.ip === 'string' && row.ip !== '' && row.ip !== '#' ? row.ip : null;
  const ipBan = toFlag(row.ipban) && ip !== null;
  const until = toMs(row.until);
  const removedBy = typeof row.removed_by_name === 'string' ? row.removed_by_name : null;
  const lifted = removedBy !== null && removedBy !== EXPIRED_MARK;
  return {
    id: `litebans-${table}-${String(row.id)}`,
    kind,
    targetUuid: uuid,
    targetName: uuid === null ? null : (names.get(uuid) ?? null),
    ipAddress: ipBan ? (toFlag(row.ipban_wildcard) ? wildcardToCidr(ip) : ip) : null,
    reason: textOr(row.reason, ''),
    issuerName: textOr(row.banned_by_name, 'Console'),
    createdMs: toMs(row.time),
    endMs: Number.isFinite(until) && until > 0 ? until : null,
    active: toFlag(row.active) && !lifted,
    pardon: lifted
      ? {
          issuerName: removedBy,
          reason: textOr(row.removed_by_reason, ''),
          dateMs: Number.isFinite(toMs(row.removed_by_date)) ? toMs(row.removed_by_date) : toMs(row.time),
        }
      : null,
    where: `${prefixed} #${String(row.id)}`,
  };
}

export const liteBansReader: PluginReader = {
  defaultPrefix: 'litebans_',
  tables: (prefix) => TABLES.map(({ table }) => `${prefix}${table}`),
  async *read(db, prefix) {
    for (const { table, kind, removable } of TABLES) {
      const name = `${prefix}${table}`;
      const q = db.quote;
      const columns = [
        'id',
        'uuid',
        'ip',
        'reason',
        'banned_by_name',
        q('time'),
        q('until'),
        'ipban',
        'ipban_wildcard',
        'active',
        ...(removable ? ['removed_by_name', 'removed_by_reason', 'removed_by_date'] : []),
      ].join(', ');
      for await (const page of pagedRows<Row>(db, name, columns)) {
        const names = await namesOf(
          db,
          `${prefix}history`,
          page.map((row) => row.uuid),
          { id: 'uuid', name: 'name', order: 'date' },
        );
        for (const row of page) yield toPunishment(row, kind, table, name, names);
      }
    }
  },
};
