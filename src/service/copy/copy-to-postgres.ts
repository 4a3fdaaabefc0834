import { existsSync } from 'node:fs';
import { type Db, openDb } from '../../db/open-db.js';
import { sqliteChoices } from '../db/dialect/sqlite-choices.js';
import { compareSteps, MIGRATION_TABLE } from '../db/migrate.js';
import { LEGACY_SQLITE_LAST_VERSION } from '../db/migrations/legacy.js';
import { PgDb } from '../sharing/pg-db.js';
import { openPostgresStorage } from '../store/open-storage.js';
import { PG_COPY_SQL, type PgColumn, TABLES_IN_COPY_ORDER } from './copy-tables.js';

/** A copy that cannot be made: the message says why and what to do. */
export class CopyRefusedError extends Error {
  override readonly name = 'CopyRefusedError';
}

export interface CopyOptions {
  /** The embedded service's SQLite file; opened read-only. */
  sqlitePath: string;
  databaseUrl: string;
  /** Empty the PostgreSQL tables first instead of refusing a database that holds rows. */
  force: boolean;
  /** Told after each batch. */
  onProgress?: (progress: { table: string; copied: number; total: number }) => void;
  /** Rows a statement inserts at most. @default 1000 */
  batchRows?: number;
}

export interface CopyReport {
  /** Rows copied per table, equal in both databases. */
  tables: Array<{ table: string; rows: number }>;
  /** SQLite tables PostgreSQL has no table for. */
  skipped: string[];
}

/** Bind parameters one statement may carry (PostgreSQL allows 65,535). */
const MAX_PARAMETERS = 60_000;

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** Why the file cannot be copied as it is (its schema is not this Bailiff's), or undefined. */
function schemaRefusal(db: Db, path: string): string | undefined {
  const startOnce = 'start `bailiff service --db` on it once with this version (it upgrades the file), then copy';
  if (hasTable(db, MIGRATION_TABLE)) {
    const applied = db.prepare<[], { name: string }>(`SELECT name FROM ${MIGRATION_TABLE}`).all();
    const status = compareSteps(
      applied.map((row) => row.name),
      sqliteChoices,
    );
    if (status === 'current') return undefined;
    return status === 'behind'
      ? `${path} misses schema steps of this Bailiff: ${startOnce}`
      : `${path} was upgraded by a newer Bailiff: copy it with that version`;
  }
  // A file of the hand-written schema (before the one store): copied at its last step.
  const expected = LEGACY_SQLITE_LAST_VERSION;
  const version = hasTable(db, 'schema_migrations')
    ? (db
        .prepare<[], { version: number | null }>(
          "SELECT max(version) AS version FROM schema_migrations WHERE component = 'service'",
        )
        .get()?.version ?? 0)
    : 0;
  if (version === expected) return undefined;
  return `${path} is at service schema version ${version}, this Bailiff copies version ${expected}: ${startOnce}`;
}

/**
 * Copies every table of an embedded service's SQLite file into PostgreSQL, in one transaction:
 * all of it, or nothing. The PostgreSQL schema is created first; a target that already holds rows
 * is refused unless `force` (which empties it). Triggers are off while copying (the change log is
 * copied as it is, so streams resume across the move); identities continue after the copied ids;
 * row counts are compared before committing. The SQLite file is only read.
 */
export async function copyToPostgres(options: CopyOptions): Promise<CopyReport> {
  if (!existsSync(options.sqlitePath)) throw new CopyRefusedError(`--from: no such file ${options.sqlitePath}`);
  const sqlite = openDb(options.sqlitePath, { readonly: true });
  try {
    const refusal = schemaRefusal(sqlite, options.sqlitePath);
    if (refusal !== undefined) throw new CopyRefusedError(refusal);
    const storage = await openPostgresStorage(options.databaseUrl, { maxConnections: 1 });
    try {
      return await new PgDb(storage.pool!).transaction((tx) => copyInTransaction(sqlite, tx, options));
    } finally {
      await storage.close();
    }
  } finally {
    sqlite.close();
  }
}

async function copyInTransaction(sqlite: Db, tx: PgDb, options: CopyOptions): Promise<CopyReport> {
  const sqliteTables = new Set(
    sqlite
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'service\\_%' ESCAPE '\\' AND name NOT LIKE 'service\\_kysely\\_%' ESCAPE '\\' AND name <> 'service_rate_buckets'",
      )
      .all()
      .map((row) => row.name),
  );
  const columns = await tx.rows<PgColumn>(PG_COPY_SQL.columns);
  const pgTables = new Map<string, PgColumn[]>();
  for (const column of columns) pgTables.set(column.table, [...(pgTables.get(column.table) ?? []), column]);
  const inBoth = (table: string) => sqliteTables.has(table) && pgTables.has(table);
  const known: readonly string[] = TABLES_IN_COPY_ORDER;
  const tables = [
    ...known.filter(inBoth),
    ...[...sqliteTables].filter((table) => inBoth(table) && !known.includes(table)).sort(),
  ];
  const skipped = [...sqliteTables].filter((table) => !pgTables.has(table)).sort();

  if (options.force) {
    await tx.run(PG_COPY_SQL.empty(tables));
  } else {
    for (const table of tables) {
      if (await tx.row(PG_COPY_SQL.anyRow(table))) {
        throw new CopyRefusedError(
          `the PostgreSQL database already holds rows (${table}): copy into an empty database, or give --force to empty it first`,
        );
      }
    }
  }
  for (const table of tables) await tx.run(PG_COPY_SQL.disableTriggers(table));

  const report: CopyReport = { tables: [], skipped };
  for (const table of tables) {
    const rows = copyTable(sqlite, tx, table, pgTables.get(table)!, options);
    report.tables.push({ table, rows: await rows });
  }
  for (const table of tables) {
    await tx.run(PG_COPY_SQL.enableTriggers(table));
    for (const column of pgTables.get(table)!.filter((candidate) => candidate.isIdentity)) {
      await tx.run(PG_COPY_SQL.continueIdentity(table, column.name));
    }
  }
  for (const { table, rows } of report.tables) {
    const copied = (await tx.row<{ count: number }>(PG_COPY_SQL.count(table)))!.count;
    if (copied !== rows) {
      throw new CopyRefusedError(`${table}: ${rows} rows in SQLite but ${copied} in PostgreSQL; nothing was copied`);
    }
  }
  return report;
}

async function copyTable(sqlite: Db, tx: PgDb, table: string, pgColumns: PgColumn[], options: CopyOptions) {
  const sqliteColumns = new Set(
    sqlite
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((row) => row.name),
  );
  // Columns PostgreSQL generates itself (a rowid's stand-in) take their values in copy order.
  const shared = pgColumns.filter((column) => sqliteColumns.has(column.name) && !column.isGeneratedAlways);
  const total = sqlite.prepare<[], { count: number }>(`SELECT count(*) AS count FROM "${table}"`).get()!.count;
  const batchRows = Math.max(1, Math.min(options.batchRows ?? 1000, Math.floor(MAX_PARAMETERS / shared.length)));
  const names = shared.map((column) => `"${column.name}"`).join(', ');
  const hasRowid =
    sqlite
      .prepare<[string], { wr: number }>(
        "SELECT count(*) AS wr FROM sqlite_master WHERE name = ? AND sql LIKE '%WITHOUT ROWID%'",
      )
      .get(table)!.wr === 0;
  const read = sqlite.prepare(`SELECT ${names} FROM "${table}"${hasRowid ? ' ORDER BY rowid' : ''}`).raw();
  let copied = 0;
  let batch: unknown[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.run(PG_COPY_SQL.insert(table, names, shared.length, batch.length), batch.flat());
    copied += batch.length;
    batch = [];
    options.onProgress?.({ table, copied, total });
  };
  for (const row of read.iterate() as Iterable<unknown[]>) {
    batch.push(row.map((value, index) => toPostgres(value, shared[index]!)));
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  if (total === 0) options.onProgress?.({ table, copied: 0, total: 0 });
  return copied;
}

/** SQLite keeps booleans as 0/1 and integers that may come back as bigint. */
function toPostgres(value: unknown, column: PgColumn): unknown {
  if (column.type === 'boolean' && typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value.toString();
  return value;
}
