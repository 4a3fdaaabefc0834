import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openDb } from '../../../src/db/open-db.js';

/**
 * Databases as the release before the one store left them (hand-written schemas at their last
 * steps: SQLite 18, PostgreSQL 16) holding the rows `writeWithTheOldCode` of upgrade.test.ts wrote
 * through that release's stores. Made once with that release's code (its schema DDL and store
 * statements, recorded): legacy/service-sqlite-v18.sql is the file's dump, and
 * legacy/service-postgres-step16.json every statement that release sent to PostgreSQL, in order.
 */
const LEGACY = new URL('./legacy/', import.meta.url);

/** Writes the release's SQLite file at `path`. */
export function writeLegacySqliteFile(path: string): void {
  const db = openDb(path);
  try {
    db.exec(readFileSync(new URL('service-sqlite-v18.sql', LEGACY), 'utf8'));
  } finally {
    db.close();
  }
}

type Recorded = { text: string; values?: unknown[] };

/** A recorded value as pg was given it: bytes were recorded as hex, or as JSON's Buffer inside a list. */
function revived(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revived);
  if (value === null || typeof value !== 'object') return value;
  if ('$hex' in value) return Buffer.from((value as { $hex: string }).$hex, 'hex');
  if ((value as { type?: unknown }).type === 'Buffer') return Buffer.from((value as { data: number[] }).data);
  return value;
}

/** Replays the release's statements on the (empty) database at `url`. */
export async function writeLegacyPostgres(url: string): Promise<void> {
  const statements = JSON.parse(readFileSync(new URL('service-postgres-step16.json', LEGACY), 'utf8')) as Recorded[];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const { text, values } of statements) {
      const bound = values?.map(revived);
      await client.query(text, bound);
    }
  } finally {
    await client.end();
  }
}
