import type { SchemaMigration } from '../../db/schema-migrations.js';

/** Hours a punishment waits after a denied appeal before it may be appealed again, unless the network sets it. */
export const DEFAULT_APPEAL_COOLDOWN_HOURS = 168;

/**
 * Schema version 17: appeals with proven identity. One-time appeal codes (only their hash) a game
 * server hands a player for one punishment, the punishments staff marked unappealable, each
 * network's wait after a denied appeal, and the appeals of a punishment by decision time (the
 * last denial starts that wait).
 */
export const APPEAL_CODES: SchemaMigration = {
  version: 17,
  name: 'appeals: one-time appeal codes, unappealable punishments, re-appeal cooldown',
  up: `
    CREATE TABLE service_appeal_codes (
      network_id INTEGER NOT NULL,
      code_hash BLOB NOT NULL,
      punishment_id TEXT NOT NULL,
      player_uuid TEXT NOT NULL,
      player_name TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER,
      PRIMARY KEY (network_id, code_hash),
      FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
    );
    CREATE INDEX service_appeal_codes_holder ON service_appeal_codes (network_id, punishment_id, player_uuid);
    CREATE TABLE service_unappealable_punishments (
      network_id INTEGER NOT NULL,
      punishment_id TEXT NOT NULL,
      marked_by TEXT NOT NULL,
      marked_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, punishment_id),
      FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
    );
    CREATE INDEX service_appeals_punishment ON service_appeals (network_id, punishment_id, decided_at);
    ALTER TABLE service_networks ADD COLUMN appeal_cooldown_hours INTEGER NOT NULL DEFAULT ${DEFAULT_APPEAL_COOLDOWN_HOURS};
  `,
};
