/**
 * Step 12, SQLite's migration 14 (src/service/db/migration-leases.ts): migration imports leased to
 * one instance at a time, with the uploaded file kept in the database in chunks while they run, so
 * another instance takes over an import whose instance stopped.
 */
export const PG_MIGRATION_LEASES: { version: number; name: string; up: string } = {
  version: 12,
  name: 'migration imports leased to one instance, their files kept in the database while they run (SQLite migration 14)',
  up: `
    ALTER TABLE service_migration_uploads ADD COLUMN leased_by TEXT;
    ALTER TABLE service_migration_uploads ADD COLUMN lease_expires_at BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE service_migration_uploads ADD COLUMN stored_chunks INTEGER;
    ALTER TABLE service_migration_uploads ADD COLUMN tally TEXT;
    CREATE INDEX service_migration_uploads_lease ON service_migration_uploads (status, lease_expires_at);
    CREATE TABLE service_migration_chunks (
      upload_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      data BYTEA NOT NULL,
      PRIMARY KEY (upload_id, seq)
    );
  `,
};
