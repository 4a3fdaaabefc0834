import type { SchemaMigration } from '../../src/db/schema-migrations.js';

/** Component name of the cache's migrations in the shared `schema_migrations` table. */
export const CACHE_COMPONENT = 'cache';

export const CACHE_SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    name: 'punishments and players seen',
    up: `
      CREATE TABLE cache_punishments (
        id TEXT PRIMARY KEY,
        target_uuid TEXT NOT NULL,
        target_name TEXT NOT NULL,
        type_ordinal INTEGER NOT NULL,
        reason TEXT NOT NULL,
        issuer_name TEXT NOT NULL,
        duration_ms INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL,
        -- epoch ms of the first enforcement (the service's, or ours when we enforced it first)
        started_at INTEGER,
        acknowledged INTEGER NOT NULL DEFAULT 0,
        notified INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX cache_punishments_target ON cache_punishments (target_uuid);
      CREATE TABLE cache_players (
        uuid TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_lower TEXT NOT NULL,
        last_seen_at INTEGER NOT NULL
      );
      CREATE INDEX cache_players_name ON cache_players (name_lower, last_seen_at);
    `,
  },
  {
    version: 2,
    name: 'ban evasion: the address of IP bans, alt-blocking bans, the parent of Linked Bans',
    up: `
      ALTER TABLE cache_punishments ADD COLUMN ip_address TEXT;
      ALTER TABLE cache_punishments ADD COLUMN alt_blocking INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE cache_punishments ADD COLUMN linked_ban_id TEXT;
      CREATE INDEX cache_punishments_ip_address ON cache_punishments (ip_address) WHERE ip_address IS NOT NULL;
    `,
  },
];
