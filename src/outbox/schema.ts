import type { Db } from '../db/open-db.js';
import { applySchemaMigrations, type SchemaMigration } from '../db/schema-migrations.js';

export const OUTBOX_COMPONENT = 'outbox';

/** Row states: pending -> in_flight -> sent | pending (retry) | dead; dead -> pending by hand. */
export const OUTBOX_STATUSES = ['pending', 'in_flight', 'sent', 'dead'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const OUTBOX_SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    name: 'create outbox',
    up: `
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        operation TEXT NOT NULL,
        payload TEXT NOT NULL,
        idempotency_key TEXT NOT NULL UNIQUE,
        ordering_key TEXT,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_flight', 'sent', 'dead')),
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        -- start of the age limit: created_at, or when a dead row was requeued
        age_from INTEGER NOT NULL,
        available_at INTEGER NOT NULL,
        claim_token TEXT,
        expires_at INTEGER,
        last_error TEXT,
        dead_reason TEXT,
        finished_at INTEGER
      );
      CREATE INDEX outbox_due ON outbox (status, available_at, id);
      CREATE INDEX outbox_ordering ON outbox (ordering_key, status, id) WHERE ordering_key IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: 'creations: outcome unknown since, punishment created',
    up: `
      -- set when an attempt of a creation may have reached the service (no answer, 5xx, lease lost):
      -- the next attempt first looks for the punishment in recent
      ALTER TABLE outbox ADD COLUMN outcome_unknown_since INTEGER;
      -- the punishment a delivered creation made (or was found to have made)
      ALTER TABLE outbox ADD COLUMN created_id TEXT;
      CREATE INDEX outbox_created ON outbox (created_id) WHERE created_id IS NOT NULL;
    `,
  },
  {
    version: 3,
    name: 'rows by operation',
    // One operation's share (chat-log batches) is counted, trimmed and forgotten once delivered.
    up: 'CREATE INDEX outbox_operation ON outbox (operation, status, id);',
  },
];

/** Creates or upgrades the outbox table in a shared database file. */
export function migrateOutbox(db: Db): number {
  return applySchemaMigrations(db, OUTBOX_COMPONENT, OUTBOX_SCHEMA_MIGRATIONS);
}

/** Whether this database has an outbox at all (for inspection commands that must not create one). */
export function hasOutboxTable(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").get() !== undefined;
}
