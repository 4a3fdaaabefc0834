import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * A database's schema as its catalogue tells it, with only what does not matter normalised away:
 * the names of constraints (and of the indexes that back them), INTEGER against BIGINT, and the
 * spelling of the DDL (case, quotes, spaces). Everything else a store or the planner depends on
 * stays: tables, columns (type family, nullability, default, key), indexes (columns or
 * expressions, collation, order, uniqueness, partial condition), foreign keys and triggers.
 */
export interface SchemaShape {
  [table: string]: {
    /** SQLite: WITHOUT ROWID. */
    withoutRowid?: boolean;
    columns: Record<string, string>;
    indexes: string[];
    foreignKeys: string[];
    checks?: string[];
    triggers: string[];
  };
}

/** The tables that record applied steps: they differ by design between a database made by the old code and a new one. */
const STEP_RECORDS = [
  'schema_migrations',
  'service_schema_migrations',
  'service_kysely_migrations',
  'service_kysely_migration_lock',
];

function typeFamily(type: string): string {
  const lower = type.toLowerCase();
  if (/^(integer|bigint|int|smallint|int[248])$/.test(lower)) return 'integer';
  if (/^(double precision|real|float[48]?)$/.test(lower)) return 'real';
  return lower;
}

/** DDL text with the case, quotes and spacing that do not change its meaning taken out. */
function normalSql(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('"', '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim();
}

function normalDefault(value: string | null): string {
  if (value === null) return 'none';
  const text = normalSql(value);
  return { false: '0', true: '1' }[text] ?? text;
}

/** The index of the parenthesis that closes the one at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let at = open; at < text.length; at += 1) {
    if (text[at] === '(') depth += 1;
    else if (text[at] === ')' && --depth === 0) return at;
  }
  return -1;
}

/**
 * What follows `ON` in a SQLite index's DDL, normalised; SQLite keeps the text as written, so an
 * expression written in parentheses PostgreSQL needs (`((a + b))`) is the same index as `(a + b)`.
 */
function sqliteIndexText(ddl: string): string {
  const text = normalSql(ddl.slice(ddl.search(/ on /i)));
  const open = text.indexOf('(');
  const close = closing(text, open);
  const items: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let at = start; at <= close; at += 1) {
    if (text[at] === '(') depth += 1;
    else if (text[at] === ')') depth -= 1;
    if ((text[at] === ',' && depth === 0) || at === close) {
      let item = text.slice(start, at);
      while (item.startsWith('(') && closing(item, 0) === item.length - 1) item = item.slice(1, -1);
      items.push(item);
      start = at + 1;
    }
  }
  return `${text.slice(0, open)}(${items.join(',')})${text.slice(close + 1)}`;
}

const sorted = <T>(items: T[]) => [...items].sort();

export function sqliteSchemaOf(path: string): SchemaShape {
  const db = new Database(path, { readonly: true });
  try {
    const all = <Row>(text: string, ...values: unknown[]) => db.prepare<unknown[], Row>(text).all(...values);
    const shape: SchemaShape = {};
    const tables = all<{ name: string; wr: number }>(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    ).filter((table) => !STEP_RECORDS.includes(table.name));
    for (const { name: table, wr } of tables) {
      const columns = all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        'SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)',
        table,
      );
      const indexes = all<{ name: string; unique: number; origin: string; partial: number }>(
        'SELECT name, "unique", origin, partial FROM pragma_index_list(?)',
        table,
      ).map((index) => {
        const keys = all<{ name: string | null; desc: number; coll: string }>(
          'SELECT name, "desc", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno',
          index.name,
        ).map(
          (key) =>
            `${key.name ?? '<expression>'}${key.desc ? ' desc' : ''}${key.coll === 'BINARY' ? '' : ` ${key.coll.toLowerCase()}`}`,
        );
        const head = `${index.unique ? 'unique ' : ''}(${keys.join(', ')})`;
        // A constraint's index has a name SQLite makes up; an index of our own is known by its name and its text.
        if (index.origin !== 'c') return `${index.origin} ${head}`;
        const text = db
          .prepare<[string], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?")
          .get(index.name)!.sql;
        return `${index.name} ${head} ${sqliteIndexText(text)}`;
      });
      const foreignKeys = new Map<number, { table: string; from: string[]; to: string[]; onDelete: string }>();
      for (const key of all<{ id: number; table: string; from: string; to: string; on_delete: string }>(
        'SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq',
        table,
      )) {
        const entry = foreignKeys.get(key.id) ?? { table: key.table, from: [], to: [], onDelete: key.on_delete };
        entry.from.push(key.from);
        entry.to.push(key.to);
        foreignKeys.set(key.id, entry);
      }
      shape[table] = {
        withoutRowid: wr === 1,
        columns: Object.fromEntries(
          columns.map((column) => [
            column.name,
            [
              typeFamily(column.type),
              column.notnull ? 'not null' : 'null',
              `default ${normalDefault(column.dflt_value)}`,
              column.pk ? `key ${column.pk}` : '',
            ]
              .join(' ')
              .trim(),
          ]),
        ),
        indexes: sorted(indexes),
        foreignKeys: sorted(
          [...foreignKeys.values()].map(
            (key) =>
              `(${key.from.join(', ')}) -> ${key.table}(${key.to.join(', ')}) on delete ${key.onDelete.toLowerCase()}`,
          ),
        ),
        triggers: sorted(
          all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", table).map(
            (trigger) => trigger.name,
          ),
        ),
      };
    }
    return shape;
  } finally {
    db.close();
  }
}

export async function postgresSchemaOf(url: string): Promise<SchemaShape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = async <Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      (await client.query<Row>(text, values)).rows;
    const shape: SchemaShape = {};
    const tables = (
      await rows<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = current_schema()')
    )
      .map((row) => row.tablename)
      .filter((table) => !STEP_RECORDS.includes(table));
    for (const table of tables) {
      const columns = await rows<{
        column_name: string;
        data_type: string;
        is_nullable: string;
        column_default: string | null;
        identity_generation: string | null;
      }>(
        `SELECT column_name, data_type, is_nullable, column_default, identity_generation FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1`,
        [table],
      );
      const indexes = await rows<{ name: string; definition: string; constraint_index: boolean }>(
        `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition,
            EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) AS constraint_index
          FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
          WHERE t.relname = $1 AND t.relnamespace = current_schema()::regnamespace`,
        [table],
      );
      const constraints = await rows<{ contype: string; definition: string }>(
        `SELECT contype, pg_get_constraintdef(oid) AS definition FROM pg_constraint
          WHERE conrelid = $1::regclass AND contype IN ('f', 'c')`,
        [table],
      );
      const triggers = await rows<{ tgname: string }>(
        'SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal',
        [table],
      );
      shape[table] = {
        columns: Object.fromEntries(
          columns.map((column) => [
            column.column_name,
            [
              typeFamily(column.data_type),
              column.is_nullable === 'YES' ? 'null' : 'not null',
              column.identity_generation
                ? `identity ${column.identity_generation.toLowerCase()}`
                : `default ${normalDefault(column.column_default)}`,
            ].join(' '),
          ]),
        ),
        // A constraint's index is known by what it holds; an index of our own also by its name.
        indexes: sorted(
          indexes.map(({ name, definition, constraint_index }) => {
            const text = normalSql(definition.replace(` ${name} `, ' ').replaceAll(' public.', ' '));
            return constraint_index ? `constraint ${text}` : `${name} ${text}`;
          }),
        ),
        foreignKeys: sorted(constraints.filter((c) => c.contype === 'f').map((c) => normalSql(c.definition))),
        checks: sorted(constraints.filter((c) => c.contype === 'c').map((c) => normalSql(c.definition))),
        triggers: sorted(triggers.map((trigger) => trigger.tgname)),
      };
    }
    return shape;
  } finally {
    await client.end();
  }
}
