import type { SourceDatabase } from './connection.js';
import { pagedRows } from './paged.js';
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
 * BanManager 7 (`common/.../data/*.java`, ORMLite tables, times in epoch seconds, `expires` 0
 * permanent): `{prefix}players` (`id` BINARY(16), `name`); in force: `player_bans`, `player_mutes`,
 * `ip_bans` (`id, player_id|ip, reason, actor_id, created, expires`), `player_warnings` (the same),
 * `player_kicks` (`id, player_id, reason, actor_id, created`); lifted or run out:
 * `player_ban_records`, `player_mute_records`, `ip_ban_records` (`reason, expired, pastActor_id,
 * pastCreated` of the punishment; `actor_id, created, createdReason` of its removal).
 */
interface TableSpec {
  table: string;
  kind: PluginKind;
  record: boolean;
  ip: boolean;
}

const TABLES: TableSpec[] = [
  { table: 'player_bans', kind: 'ban', record: false, ip: false },
  { table: 'player_ban_records', kind: 'ban', record: true, ip: false },
  { table: 'ip_bans', kind: 'ban', record: false, ip: true },
  { table: 'ip_ban_records', kind: 'ban', record: true, ip: true },
  { table: 'player_mutes', kind: 'mute', record: false, ip: false },
  { table: 'player_mute_records', kind: 'mute', record: true, ip: false },
  { table: 'player_warnings', kind: 'warning', record: false, ip: false },
  { table: 'player_kicks', kind: 'kick', record: false, ip: false },
];

function columnsOf(spec: TableSpec): string {
  const target = spec.ip ? 'ip' : 'player_id';
  if (spec.record) {
    return `id, ${target}, reason, expired, actor_id, pastActor_id, pastCreated, created, createdReason`;
  }
  return `id, ${target}, reason, actor_id, created${spec.kind === 'kick' ? '' : ', expires'}`;
}

type Row = Record<string, unknown>;
const seconds = (value: unknown) => toMs(value) * 1000;

function toPunishment(row: Row, spec: TableSpec, table: string, names: Map<string, string>): PluginPunishment {
  const name = (id: unknown) => names.get(keyOf(id)) ?? binaryUuid(id) ?? 'Console';
  const expires = spec.record ? toMs(row.expired) : spec.kind === 'kick' ? 0 : toMs(row.expires);
  const endMs = expires > 0 ? expires * 1000 : null;
  const createdMs = spec.record ? seconds(row.pastCreated) : seconds(row.created);
  // A record made when the punishment ran out is no pardon: BanManager moves expired ones there too.
  const removedMs = spec.record ? seconds(row.created) : null;
  const ranOut = removedMs !== null && endMs !== null && removedMs >= endMs;
  return {
    id: `banmanager-${spec.table}-${String(row.id)}`,
    kind: spec.kind,
    targetUuid: spec.ip ? null : binaryUuid(row.player_id),
    targetName: spec.ip ? null : (names.get(keyOf(row.player_id)) ?? null),
    ipAddress: spec.ip ? binaryAddress(row.ip) : null,
    reason: textOr(row.reason, ''),
    issuerName: name(spec.record ? row.pastActor_id : row.actor_id),
    createdMs,
    endMs,
    active: !spec.record,
    pardon:
      spec.record && !ranOut
        ? { issuerName: name(row.actor_id), reason: textOr(row.createdReason, ''), dateMs: removedMs ?? createdMs }
        : null,
    where: `${table} #${String(row.id)}`,
  };
}

async function names(db: SourceDatabase, prefix: string, page: Row[]): Promise<Map<string, string>> {
  const ids = page.flatMap((row) => [row.player_id, row.actor_id, row.pastActor_id]);
  return namesOf(db, `${prefix}players`, ids, { id: 'id', name: 'name' });
}

export const banManagerReader: PluginReader = {
  defaultPrefix: 'bm_',
  tables: (prefix) => TABLES.map(({ table }) => `${prefix}${table}`),
  async *read(db, prefix) {
    for (const spec of TABLES) {
      const table = `${prefix}${spec.table}`;
      for await (const page of pagedRows<Row>(db, table, columnsOf(spec))) {
        const known = await names(db, prefix, page);
        for (const row of page) yield toPunishment(row, spec, table, known);
      }
    }
  },
};
