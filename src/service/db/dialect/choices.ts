import type {
  AliasedExpression,
  ColumnDataType,
  ColumnDefinitionBuilder,
  CreateTableBuilder,
  Expression,
  Kysely,
  OperationNode,
  RawBuilder,
  Selectable,
  SelectQueryBuilder,
  SqlBool,
} from 'kysely';
import type { ServiceTables } from '../tables.js';

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
  /** {@link insertionOrder} of the table read as `alias` (in a join, where the bare name is ambiguous). */
  insertionOrderOf(alias: string): RawBuilder<number>;
  /** The text under `key` of a JSON text column, as an expression an index can be built on. */
  jsonText(column: string, key: string): RawBuilder<string | null>;
  /** A name column folded for case-insensitive matching (SQLite's NOCASE), as its indexes hold it. */
  foldedName(column: string): RawBuilder<string>;
  /** A value folded to compare with {@link foldedName}. */
  foldedValue(value: string): RawBuilder<string>;
  /** A name column folded for ranges of names in any case (prefix search), in the order of an index of it. */
  rangeFoldedName(column: string): RawBuilder<string>;
  /** A value folded to compare with {@link rangeFoldedName}. */
  rangeFoldedValue(value: unknown): RawBuilder<string>;
  /** The larger of two numbers (SQLite's two-argument max, PostgreSQL's greatest). */
  greater(left: Expression<number>, right: unknown): RawBuilder<number>;
  /**
   * Whether `value` is one of a list bound as one parameter (an array: SQLite's driver binds it as
   * JSON text, read with json_each), so one statement serves lists of any length.
   */
  inList(value: Expression<unknown>, list: unknown): RawBuilder<SqlBool>;
  /** `table` read through `index` only (SQLite's INDEXED BY, where a planner without statistics picks worse); PostgreSQL plans alone. */
  throughIndex<T extends keyof ServiceTables & string>(
    table: T,
    index: string,
  ): AliasedExpression<Selectable<ServiceTables[T]>, T>;
  /** Rows a select reads, locked until the transaction ends (PostgreSQL's FOR UPDATE): other writers of them wait; SQLite has one writer. */
  lockedRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** Rows a select reads, locked until the transaction ends, skipping those another transaction holds (PostgreSQL); SQLite has one writer. */
  skipLockedRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * Holds a lock on `key` (a number as it is, a text by its hash) in `space` until the transaction
   * ends (PostgreSQL); SQLite's writers are one at a time already.
   */
  lockUntilCommit(db: AnyDb, space: number, key: string | number): Promise<void>;
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

/** A FROM item that Kysely types as `table` but that compiles to `node` (a table with a planner hint). */
export function tableAs<T extends keyof ServiceTables & string>(
  table: T,
  node: OperationNode,
): AliasedExpression<Selectable<ServiceTables[T]>, T> {
  return { expression: undefined, alias: table, toOperationNode: () => node } as unknown as AliasedExpression<
    Selectable<ServiceTables[T]>,
    T
  >;
}
