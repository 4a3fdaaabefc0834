import type { SourceDatabase } from './connection.js';

export const PAGE_ROWS = 2000;

/**
 * Every row of `table` in id order, a page at a time (keyset on `idColumn`), so memory holds one
 * page however large the table is. `columns` is the select list.
 */
export async function* pagedRows<Row extends Record<string, unknown>>(
  db: SourceDatabase,
  table: string,
  columns: string,
  idColumn = 'id',
): AsyncIterable<Row[]> {
  const id = db.quote(idColumn);
  let after: unknown = null;
  for (;;) {
    const where = after === null ? '' : `WHERE ${id} > ?`;
    const rows = await db.query<Row>(
      `SELECT ${columns} FROM ${db.quote(table)} ${where} ORDER BY ${id} LIMIT ${PAGE_ROWS}`,
      after === null ? [] : [after],
    );
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]![idColumn];
    if (rows.length < PAGE_ROWS) return;
  }
}

/** Rows of `table`, or 0 when it does not exist (an older version of the plugin). */
export async function countRows(db: SourceDatabase, table: string): Promise<number> {
  const rows = await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${db.quote(table)}`);
  return Number(rows[0]?.n ?? 0);
}

/** True when the database has this table (in the URL's database or schema). */
export async function hasTable(db: SourceDatabase, table: string): Promise<boolean> {
  const sql =
    db.dialect === 'mysql'
      ? 'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?'
      : 'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?';
  const rows = await db.query<{ n: unknown }>(sql, [table]);
  return Number(rows[0]?.n ?? 0) > 0;
}
