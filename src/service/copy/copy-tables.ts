import { pgStatements } from '../sharing/pg-db.js';

/**
 * The service's tables, each after those its foreign keys point to. A SQLite table missing here is
 * still copied when PostgreSQL has it (after these), so a new table is never silently left behind.
 */
export const TABLES_IN_COPY_ORDER = [
  'service_networks',
  'service_servers',
  'service_retired_keys',
  'service_players',
  'service_player_ips',
  'service_punishments',
  'service_evidence',
  'service_acknowledgements',
  'service_notifications',
  'service_pardons',
  'service_idempotency_keys',
  'service_tickets',
  'service_ticket_replies',
  'service_migration_uploads',
  'service_migration_chunks',
  'service_migration_reports',
  'service_webhooks',
  'service_webhook_deliveries',
  'service_webhook_log',
  'service_stream_heads',
  'service_stream_changes',
  'service_panel_roles',
  'service_panel_accounts',
  'service_panel_sessions',
  'service_panel_recovery_codes',
  'service_panel_devices',
  'service_panel_two_factor_roles',
  'service_audit_log',
  'service_warning_ladders',
  'service_warning_ladder_steps',
] as const;

/** A column of a PostgreSQL service table. */
export interface PgColumn {
  table: string;
  name: string;
  type: string;
  isIdentity: boolean;
  /** Only PostgreSQL may write it (GENERATED ALWAYS). */
  isGeneratedAlways: boolean;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The statements of the copy; table names come from the two catalogues, never from input. */
export const PG_COPY_SQL = {
  ...pgStatements('copy', {
    columns: `SELECT table_name AS "table", column_name AS name, data_type AS type,
        is_identity = 'YES' AS "isIdentity", identity_generation = 'ALWAYS' AS "isGeneratedAlways"
      FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name LIKE 'service\\_%'
        AND table_name NOT IN ('service_schema_migrations', 'service_rate_buckets')
        AND table_name NOT LIKE 'service\\_kysely\\_%'
      ORDER BY table_name, ordinal_position`,
  }),
  anyRow: (table: string) => ({
    name: `copy.anyRow.${table}`,
    text: `SELECT 1 AS found FROM ${quoted(table)} LIMIT 1`,
  }),
  count: (table: string) => ({
    name: `copy.count.${table}`,
    text: `SELECT count(*)::int AS count FROM ${quoted(table)}`,
  }),
  empty: (tables: readonly string[]) => ({
    name: 'copy.empty',
    text: `TRUNCATE ${tables.map(quoted).join(', ')} RESTART IDENTITY CASCADE`,
  }),
  // Triggers would log every copied punishment again; the change log is copied as it is.
  disableTriggers: (table: string) => ({
    name: `copy.disable.${table}`,
    text: `ALTER TABLE ${quoted(table)} DISABLE TRIGGER USER`,
  }),
  enableTriggers: (table: string) => ({
    name: `copy.enable.${table}`,
    text: `ALTER TABLE ${quoted(table)} ENABLE TRIGGER USER`,
  }),
  continueIdentity: (table: string, column: string) => ({
    name: `copy.identity.${table}.${column}`,
    text: `SELECT setval(pg_get_serial_sequence('${quoted(table)}', '${column}'),
        coalesce((SELECT max(${quoted(column)}) FROM ${quoted(table)}), 0) + 1, false)`,
  }),
  insert: (table: string, names: string, columnCount: number, rowCount: number) => {
    const rows: string[] = [];
    for (let row = 0; row < rowCount; row += 1) {
      const values = Array.from({ length: columnCount }, (_, column) => `$${row * columnCount + column + 1}`);
      rows.push(`(${values.join(', ')})`);
    }
    return {
      name: `copy.insert.${table}.${rowCount}`,
      text: `INSERT INTO ${quoted(table)} (${names}) VALUES ${rows.join(', ')}`,
    };
  },
};
