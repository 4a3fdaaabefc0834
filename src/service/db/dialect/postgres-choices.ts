import { sql, TableNode } from 'kysely';
import { type DialectChoices, type IndexColumn, tableAs } from './choices.js';

/** First key of the transaction lock a writer of a network's change log holds (the second is the network id). */
export const STREAM_LOCK_CLASS = 1_111_640_396;
/** The channel an instance listens on for committed changes of any network's change log. */
export const CHANGES_CHANNEL = 'bailiff_changes';

/**
 * PostgreSQL's answers: an identity `row_id`, jsonb, lower(), advisory locks. The change log's
 * triggers take a per-network transaction lock first, so sequence numbers are handed out in commit
 * order even with several instances writing (a reader never sees n+1 committed before n).
 */
export const postgresChoices: DialectChoices = {
  name: 'postgres',
  insertionOrder: sql<number>`row_id`,
  insertionOrderOf: (alias) => sql<number>`${sql.ref(`${alias}.row_id`)}`,
  jsonText: (column, key) => sql<string | null>`((${sql.raw(column)}::jsonb) ->> ${sql.lit(key)})`,
  foldedName: (column) => sql<string>`lower(${sql.raw(column)})`,
  foldedValue: (value) => sql<string>`lower(${value})`,
  // lower() under "C" folds ASCII only and orders by bytes, as NOCASE does (the index service_players_name_prefix).
  rangeFoldedName: (column) => sql<string>`lower(${sql.raw(column)} COLLATE "C")`,
  rangeFoldedValue: (value) => sql<string>`lower(${value}::text COLLATE "C")`,
  greater: (left, right) => sql<number>`greatest(${left}, ${right})`,
  inList: (value, list) => sql`${value} = ANY(${list})`,
  throughIndex: (table) => tableAs(table, TableNode.create(table)),
  lockedRows: (query) => query.forUpdate(),
  skipLockedRows: (query) => query.forUpdate().skipLocked(),
  async lockUntilCommit(db, space, key) {
    const lockKey = typeof key === 'number' ? sql`${key}::integer` : sql`hashtext(${key})`;
    await sql`SELECT pg_advisory_xact_lock(${space}::integer, ${lockKey})`.execute(db);
  },
  async hasTable(db, table) {
    const found =
      await sql`SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = ${table}`.execute(db);
    return found.rows.length > 0;
  },
  async refreshStatistics(db) {
    await sql`ANALYZE`.execute(db);
  },
  schema: {
    bigint: 'bigint',
    bytes: 'bytea',
    boolean: 'boolean',
    withAutoId: (table) => table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()),
    withInsertionOrder: (table) => table.addColumn('row_id', 'bigint', (c) => c.generatedAlwaysAsIdentity()),
    keyedOnly: (table) => table,
    orderedIndexColumns: (columns: IndexColumn[]) => [...columns, 'row_id'],
    caseInsensitiveUnique: (column) => column,
    async playerNameIndexes(db) {
      await sql`CREATE INDEX service_players_name ON service_players (network_id, lower(name), last_login_at DESC NULLS LAST)`.execute(
        db,
      );
      // lower() under "C" folds ASCII only and orders by bytes, as NOCASE does, whatever the database's locale.
      await sql`CREATE INDEX service_players_name_prefix ON service_players (network_id, (lower(name COLLATE "C")))`.execute(
        db,
      );
    },
    async panelAccountIndexes(db) {
      await sql`CREATE UNIQUE INDEX service_panel_accounts_username ON service_panel_accounts (lower(username))`.execute(
        db,
      );
      await sql`CREATE INDEX service_panel_accounts_network ON service_panel_accounts (network_id, lower(username))`.execute(
        db,
      );
    },
    async streamLogTriggers(db) {
      await sql
        .raw(`CREATE FUNCTION service_stream_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_advisory_xact_lock(${STREAM_LOCK_CLASS}, NEW.network_id);
          INSERT INTO service_stream_changes (network_id, sequence, punishment_id) VALUES (
            NEW.network_id,
            COALESCE(
              (SELECT MAX(sequence) FROM service_stream_changes WHERE network_id = NEW.network_id),
              (SELECT pruned_through FROM service_stream_heads WHERE network_id = NEW.network_id),
              0
            ) + 1,
            NEW.id);
          RETURN NULL;
        END;
        $$`)
        .execute(db);
      await sql`CREATE TRIGGER service_stream_log_insert AFTER INSERT ON service_punishments
        FOR EACH ROW EXECUTE FUNCTION service_stream_log_change()`.execute(db);
      await sql`CREATE TRIGGER service_stream_log_update
        AFTER UPDATE OF status, target_uuid, target_name, issuer_name, type_ordinal, reason, duration, severity, data,
          notes, attached_ticket_ids ON service_punishments
        FOR EACH ROW EXECUTE FUNCTION service_stream_log_change()`.execute(db);
      // Sent at commit to every instance listening: one per network per statement, with its newest sequence.
      await sql
        .raw(`CREATE FUNCTION service_stream_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('${CHANGES_CHANNEL}', appended.network_id || ':' || appended.newest)
            FROM (SELECT network_id, max(sequence) AS newest FROM appended_changes GROUP BY network_id) AS appended;
          RETURN NULL;
        END $$`)
        .execute(db);
      await sql`CREATE TRIGGER service_stream_changes_notify AFTER INSERT ON service_stream_changes
        REFERENCING NEW TABLE AS appended_changes FOR EACH STATEMENT EXECUTE FUNCTION service_stream_changes_notify()`.execute(
        db,
      );
    },
  },
};
