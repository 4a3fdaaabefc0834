/** Step 13: SQLite's version 15 (src/service/db/server-keys.ts): when a key was set, removed servers, retired keys. */
export const SERVER_KEYS_STEP: { version: number; name: string; up: string } = {
  version: 13,
  name: 'servers and keys: when a key was set, removed servers, retired keys in their grace period (SQLite 15)',
  up: `
    ALTER TABLE service_servers ADD COLUMN key_set_at BIGINT;
    ALTER TABLE service_servers ADD COLUMN removed_at BIGINT;
    CREATE TABLE service_retired_keys (
      key_hash BYTEA NOT NULL PRIMARY KEY,
      server_id INTEGER NOT NULL REFERENCES service_servers(id),
      retired_at BIGINT NOT NULL,
      valid_until BIGINT NOT NULL
    );
    CREATE INDEX service_retired_keys_server ON service_retired_keys (server_id, valid_until);
  `,
};
