import type { SchemaMigration } from '../../db/schema-migrations.js';

/**
 * Schema version 15: servers and keys managed without a seed. A server's current key stays in
 * `service_servers.key_hash` (the login check's one probe); a key replaced by a rotation is kept in
 * `service_retired_keys` until the end of the grace period the operator chose. A removed server
 * keeps its row, since acknowledgements and uploads name it, but no key of it is accepted.
 */
export const SERVER_KEYS: SchemaMigration = {
  version: 15,
  name: 'servers and keys: when a key was set, removed servers, retired keys in their grace period',
  up: `
    -- Null for a server whose key was set before this version.
    ALTER TABLE service_servers ADD COLUMN key_set_at INTEGER;
    ALTER TABLE service_servers ADD COLUMN removed_at INTEGER;
    CREATE TABLE service_retired_keys (
      key_hash BLOB NOT NULL PRIMARY KEY,
      server_id INTEGER NOT NULL REFERENCES service_servers(id),
      retired_at INTEGER NOT NULL,
      valid_until INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX service_retired_keys_server ON service_retired_keys (server_id, valid_until);
  `,
};
