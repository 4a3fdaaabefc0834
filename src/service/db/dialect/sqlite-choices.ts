import { RawNode, sql } from 'kysely';
import { type DialectChoices, type IndexColumn, tableAs } from './choices.js';

/** Rows ANALYZE reads of each index: enough to tell a selective index from a poor one, quick on 1,000,000 punishments. */
export const ANALYSIS_LIMIT = 1000;
// PRAGMA optimize bits: 0x2 analyze tables that would benefit, 0x10 with a bounded analysis,
// 0x10000 check every table (not only those this connection has used; it has used none at start).
const OPTIMIZE_ALL_TABLES = 0x10012;

// Each appends at the end of the primary key: no other index to keep, so bulk imports stay cheap.
// A network's head row (its epoch) is made when the stream first asks for it.
const appendChange = `INSERT INTO service_stream_changes (network_id, sequence, punishment_id) VALUES (
    NEW.network_id,
    COALESCE(
      (SELECT MAX(sequence) FROM service_stream_changes WHERE network_id = NEW.network_id),
      (SELECT pruned_through FROM service_stream_heads WHERE network_id = NEW.network_id),
      0
    ) + 1,
    NEW.id);`;

/** SQLite's answers: rowid, json_extract, NOCASE, WITHOUT ROWID, and one writer at a time. */
export const sqliteChoices: DialectChoices = {
  name: 'sqlite',
  insertionOrder: sql<number>`rowid`,
  insertionOrderOf: (alias) => sql<number>`${sql.ref(`${alias}.rowid`)}`,
  jsonText: (column, key) => sql<string | null>`json_extract(${sql.raw(column)}, ${sql.lit(`$.${key}`)})`,
  foldedName: (column) => sql<string>`${sql.raw(column)} COLLATE NOCASE`,
  foldedValue: (value) => sql<string>`${value}`,
  rangeFoldedName: (column) => sql<string>`${sql.raw(column)} COLLATE NOCASE`,
  rangeFoldedValue: (value) => sql<string>`${value}`,
  greater: (left, right) => sql<number>`max(${left}, ${right})`,
  inList: (value, list) => sql`${value} IN (SELECT value FROM json_each(${list}))`,
  throughIndex: (table, index) => tableAs(table, RawNode.createWithSql(`"${table}" INDEXED BY "${index}"`)),
  lockedRows: (query) => query,
  skipLockedRows: (query) => query,
  lockUntilCommit: async () => {},
  async hasTable(db, table) {
    const found = await sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ${table}`.execute(db);
    return found.rows.length > 0;
  },
  async refreshStatistics(db) {
    await sql.raw(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}`).execute(db);
    await sql.raw(`PRAGMA optimize = ${OPTIMIZE_ALL_TABLES}`).execute(db);
  },
  schema: {
    bigint: 'integer',
    bytes: 'blob',
    boolean: 'integer',
    withAutoId: (table) => table.addColumn('id', 'integer', (c) => c.primaryKey()),
    withInsertionOrder: (table) => table,
    keyedOnly: (table) => table.modifyEnd(sql`without rowid`),
    orderedIndexColumns: (columns: IndexColumn[]) => columns,
    caseInsensitiveUnique: (column) => column.modifyEnd(sql`collate nocase unique`),
    async playerNameIndexes(db) {
      await sql`CREATE INDEX service_players_name ON service_players (network_id, name COLLATE NOCASE, last_login_at)`.execute(
        db,
      );
    },
    async panelAccountIndexes(db) {
      await db.schema
        .createIndex('service_panel_accounts_network')
        .on('service_panel_accounts')
        .columns(['network_id', 'username'])
        .execute();
    },
    async streamLogTriggers(db) {
      await sql
        .raw(`CREATE TRIGGER service_stream_log_insert AFTER INSERT ON service_punishments BEGIN ${appendChange} END`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER service_stream_log_update
          AFTER UPDATE OF status, target_uuid, target_name, issuer_name, type_ordinal, reason, duration, severity, data,
            notes, attached_ticket_ids ON service_punishments BEGIN ${appendChange} END`)
        .execute(db);
    },
  },
};
