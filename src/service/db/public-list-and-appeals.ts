import type { SchemaMigration } from '../../db/schema-migrations.js';

/**
 * A punishment's kind on the public list, as SQL over its row: a warning (status `warning`), a
 * kick (ordinal 0), a mute (the catalogue's mute ordinals 1, 6, 7) or else a ban. The index below
 * is built on this exact text, so statements must use it unchanged to read through the index;
 * test/service/public-kinds.test.ts checks it against the type catalogue.
 */
export const PUBLIC_KIND_SQL =
  "CASE WHEN status = 'warning' THEN 'warning' WHEN type_ordinal = 0 THEN 'kick' WHEN type_ordinal IN (1, 6, 7) THEN 'mute' ELSE 'ban' END";

/**
 * Schema version 12: the owner's switch of a network's public ban list, the indexes that page it by
 * kind and by player in creation order, and appeals (a ticket linked to the punishment it appeals,
 * with the hash of the player's private link; one open appeal per punishment). A migration upload
 * may come from the panel (no server, the staff member who uploaded it).
 */
export const PUBLIC_LIST_AND_APPEALS: SchemaMigration = {
  version: 12,
  name: 'panel: public ban list switch and kind index, appeals, uploads from the panel',
  up: `
    ALTER TABLE service_networks ADD COLUMN public_list INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX service_punishments_public_kind ON service_punishments (network_id, (${PUBLIC_KIND_SQL}), created_at);
    CREATE INDEX service_punishments_player_history ON service_punishments (network_id, target_uuid, created_at);
    CREATE TABLE service_appeals (
      network_id INTEGER NOT NULL,
      ticket_id TEXT NOT NULL,
      punishment_id TEXT NOT NULL,
      token_hash BLOB NOT NULL UNIQUE,
      player_name TEXT NOT NULL,
      status TEXT NOT NULL,
      answer TEXT,
      decided_by TEXT,
      decided_at INTEGER,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, ticket_id),
      FOREIGN KEY (network_id, ticket_id) REFERENCES service_tickets(network_id, id),
      FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
    );
    CREATE UNIQUE INDEX service_appeals_open ON service_appeals (network_id, punishment_id) WHERE status = 'open';
    -- Uploads from the panel have no server: server_id becomes optional, uploaded_by names the staff member.
    CREATE TABLE service_migration_uploads_v12 (
      id TEXT PRIMARY KEY,
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      server_id INTEGER REFERENCES service_servers(id),
      uploaded_by TEXT,
      file_size INTEGER NOT NULL,
      status TEXT NOT NULL,
      processed INTEGER NOT NULL,
      total INTEGER NOT NULL,
      message TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    INSERT INTO service_migration_uploads_v12 (id, network_id, server_id, file_size, status, processed, total, message,
        created_at, updated_at)
      SELECT id, network_id, server_id, file_size, status, processed, total, message, created_at, updated_at
      FROM service_migration_uploads;
    DROP TABLE service_migration_uploads;
    ALTER TABLE service_migration_uploads_v12 RENAME TO service_migration_uploads;
    CREATE INDEX service_migration_uploads_network ON service_migration_uploads (network_id, created_at);
  `,
};
