import type { ColumnDataType, ColumnDefinitionBuilder, CreateTableBuilder, Expression, Kysely, RawBuilder } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: DDL runs before the tables it makes exist
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: a table builder at any stage
export type TableBuilder = CreateTableBuilder<any, any>;
/** An index column: a column name or an expression. */
// biome-ignore lint/suspicious/noExplicitAny: expressions of any type
export type IndexColumn = string | Expression<any>;

/**
 * What differs between SQLite and PostgreSQL, decided once per database: everything else in the
 * stores and the schema is written once. Each database has one module that answers these
 * (sqlite-choices.ts, postgres-choices.ts).
 */
export interface DialectChoices {
  readonly name: 'sqlite' | 'postgres';
  /**
   * The insertion order of punishments, tickets and uploads, the tie-break of their pages:
   * SQLite's rowid, PostgreSQL's identity column `row_id`.
   */
  readonly insertionOrder: RawBuilder<number>;
  /** The text under `key` of a JSON text column, as an expression an index can be built on. */
  jsonText(column: string, key: string): RawBuilder<string | null>;
  /** A name column folded for case-insensitive matching (SQLite's NOCASE), as its indexes hold it. */
  foldedName(column: string): RawBuilder<string>;
  /** A value folded to compare with {@link foldedName}. */
  foldedValue(value: string): RawBuilder<string>;
  /** Holds a lock on `key` until the transaction ends (PostgreSQL); SQLite's writers are one at a time already. */
  lockUntilCommit(db: AnyDb, space: number, key: string): Promise<void>;
  /** Whether the table exists (on the connection of `db`, which may be a transaction's). */
  hasTable(db: AnyDb, table: string): Promise<boolean>;
  /** Brings the planner's statistics up to date after bulk writes (seeds, imports); cheap when nothing changed. */
  refreshStatistics(db: AnyDb): Promise<void>;
  readonly schema: SchemaChoices;
}

/** How the schema spells what the databases spell differently. */
export interface SchemaChoices {
  /** Milliseconds since the epoch, durations, counts, sequences. */
  readonly bigint: ColumnDataType;
  readonly bytes: ColumnDataType;
  readonly boolean: ColumnDataType;
  /** Adds `id`, handed out by the database, as the table's primary key. */
  withAutoId(table: TableBuilder): TableBuilder;
  /** Adds the insertion order column where the database has none of its own (PostgreSQL's `row_id`). */
  withInsertionOrder(table: TableBuilder): TableBuilder;
  /** A table read only through its primary key: SQLite keeps it as that key's b-tree (WITHOUT ROWID). */
  keyedOnly(table: TableBuilder): TableBuilder;
  /** The columns of an index whose pages read their keyset from it: `columns` then the insertion order. */
  orderedIndexColumns(columns: IndexColumn[]): IndexColumn[];
  /** A text column unique whatever its letters' case. */
  caseInsensitiveUnique(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** The players' name indexes: exact lookups and prefix search, case-insensitive. */
  playerNameIndexes(db: AnyDb): Promise<void>;
  /** The panel accounts' index by network and name. */
  panelAccountIndexes(db: AnyDb): Promise<void>;
  /** The triggers that append every change of a punishment to its network's stream change log. */
  streamLogTriggers(db: AnyDb): Promise<void>;
}
