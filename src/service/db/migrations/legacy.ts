import { type Kysely, sql } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: runs before the tables are typed
type Db = Kysely<any>;

/** 1, 2, ... `last`. */
const upTo = (last: number) => Array.from({ length: last }, (_, at) => at + 1);

/**
 * Databases made before the schema moved to Kysely record their steps in a table of their own.
 * Such a database is taken over as it is when every one of those steps ran (its schema is then the
 * baseline's), after the few changes that make the two databases' schemas one.
 */
const LEGACY = {
  sqlite: {
    versions: sql<{ version: number }>`SELECT version FROM schema_migrations WHERE component = 'service'`,
    table: 'schema_migrations',
    // The service's numbered migrations of the release before (its src/service/db/schema.ts), one a line: a step the baseline holds.
    final: [
      ...upTo(13),
      14, // migration imports leased, their files kept in chunks
      15, // servers and keys managed: when a key was set, removed servers, retired keys
      16, // panel two-factor, devices, recovery codes, roles requiring two-factor
      17, // appeal codes, unappealable punishments, re-appeal cooldown
      18, // the public issuer label
    ],
    async adopt(db: Db) {
      // Webhook leases and shared rate buckets were PostgreSQL's alone.
      await sql`ALTER TABLE service_webhook_deliveries ADD COLUMN leased_until INTEGER NOT NULL DEFAULT 0`.execute(db);
      await sql`ALTER TABLE service_webhook_deliveries ADD COLUMN leased_by TEXT`.execute(db);
      await db.schema
        .createTable('service_rate_buckets')
        .addColumn('bucket_key', 'text', (c) => c.primaryKey())
        .addColumn('tokens', 'double precision', (c) => c.notNull())
        .addColumn('refilled_at', 'integer', (c) => c.notNull())
        .addColumn('granted', 'double precision', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('service_rate_buckets_idle')
        .on('service_rate_buckets')
        .column('refilled_at')
        .execute();
    },
  },
  postgres: {
    versions: sql<{ version: number }>`SELECT version FROM service_schema_migrations`,
    table: 'service_schema_migrations',
    // PostgreSQL's steps of the release before (its src/service/store/postgres/schema.ts), one a line: a step the baseline holds.
    final: [
      ...upTo(5),
      10, // the player search's index of names by prefix
      11, // the ticket list's keyset
      12, // migration imports leased, their files kept in chunks (SQLite 14)
      13, // servers and keys managed, retired keys (SQLite 15)
      101, // several instances: webhook leases, uploads in the order they started
      102, // several instances: change notifications
      103, // several instances: shared rate buckets
      14, // panel two-factor (SQLite 16)
      15, // appeal codes (SQLite 17)
      16, // the public issuer label (SQLite 18)
    ],
    async adopt(db: Db) {
      // Uploads' insertion order has the name punishments' and tickets' have.
      await sql`ALTER TABLE service_migration_uploads RENAME COLUMN seq TO row_id`.execute(db);
      // Handed out by the database alone, as theirs are.
      await sql`ALTER TABLE service_migration_uploads ALTER COLUMN row_id SET GENERATED ALWAYS`.execute(db);
    },
  },
} as const;

/** The last step of the hand-written SQLite schema: a file of it at this version is taken over (or copied). */
export const LEGACY_SQLITE_LAST_VERSION = Math.max(...LEGACY.sqlite.final);

/** Takes over a database made by the hand-written schemas; false when there is none to take over. */
export async function adoptLegacySchema(db: Db, choices: DialectChoices): Promise<boolean> {
  const legacy = LEGACY[choices.name];
  if (!(await choices.hasTable(db, legacy.table))) return false;
  const applied = new Set((await legacy.versions.execute(db)).rows.map((row) => row.version));
  if (applied.size === 0) return false;
  const missing = legacy.final.filter((version) => !applied.has(version));
  if (missing.length > 0) {
    throw new Error(
      `this database was made by an older Bailiff and misses its schema steps ${missing.join(', ')}: ` +
        'start the release that made it once, so it finishes them, then this one',
    );
  }
  await legacy.adopt(db);
  return true;
}
