import type { SchemaMigration } from '../../db/schema-migrations.js';

/**
 * Schema version 14: migration imports that survive their instance. The uploaded file is kept in
 * the database in chunks while it is imported (so another instance, or this one after a restart,
 * can read it); the import is leased to one instance at a time, which renews the lease while it
 * works; and what it counted so far is kept with the players processed, so a resumed import goes
 * on from the last batch it committed. PostgreSQL's step 12 is the same.
 */
export const MIGRATION_LEASES: SchemaMigration = {
  version: 14,
  name: 'migration imports leased to one instance, their files kept in the database while they run',
  up: `
    ALTER TABLE service_migration_uploads ADD COLUMN leased_by TEXT;
    ALTER TABLE service_migration_uploads ADD COLUMN lease_expires_at INTEGER NOT NULL DEFAULT 0;
    -- Null until the whole file is stored: an import whose file never was cannot be taken over.
    ALTER TABLE service_migration_uploads ADD COLUMN stored_chunks INTEGER;
    -- What the batches committed so far counted (JSON), so a resumed import adds to it.
    ALTER TABLE service_migration_uploads ADD COLUMN tally TEXT;
    -- Imports whose lease ran out are found without reading every upload.
    CREATE INDEX service_migration_uploads_lease ON service_migration_uploads (status, lease_expires_at);
    CREATE TABLE service_migration_chunks (
      upload_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      data BLOB NOT NULL,
      PRIMARY KEY (upload_id, seq)
    ) WITHOUT ROWID;
  `,
};
