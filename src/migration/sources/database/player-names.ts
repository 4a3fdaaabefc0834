import type { SourceDatabase } from './connection.js';

/**
 * The names of these ids from a `(id, name)` table, in one query: `idColumn` and `nameColumn`
 * name the columns, `orderColumn` (when given) makes the latest name win.
 */
export async function namesOf(
  db: SourceDatabase,
  table: string,
  ids: unknown[],
  columns: { id: string; name: string; order?: string },
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const unique = [...new Map(ids.filter((id) => id != null).map((id) => [keyOf(id), id])).values()];
  if (unique.length === 0) return names;
  const order = columns.order ? ` ORDER BY ${db.quote(columns.order)}` : '';
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${db.quote(columns.id)} AS id, ${db.quote(columns.name)} AS name FROM ${db.quote(table)} WHERE ${db.quote(columns.id)} IN (${unique.map(() => '?').join(', ')})${order}`,
    unique,
  );
  for (const row of rows) if (typeof row.name === 'string') names.set(keyOf(row.id), row.name);
  return names;
}

/** A map key for an id column's value (text, or bytes of a BINARY(16) uuid). */
export function keyOf(id: unknown): string {
  if (Buffer.isBuffer(id)) return id.toString('hex');
  if (id instanceof Uint8Array) return Buffer.from(id).toString('hex');
  return String(id);
}
