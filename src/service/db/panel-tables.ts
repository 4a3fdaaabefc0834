import type { SchemaMigration } from '../../db/schema-migrations.js';

/**
 * Schema version 11: the panel's staff accounts, custom roles, sessions and the audit log, plus
 * the indexes the dashboard's charts and open-ticket list read through.
 */
export const PANEL_TABLES: SchemaMigration = {
  version: 11,
  name: 'panel: staff accounts, roles, sessions, audit log; dashboard indexes',
  up: `
    -- Roles beside the built-in ones (src/service/panel/permissions.ts), per network.
    CREATE TABLE service_panel_roles (
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      name TEXT NOT NULL,
      permissions TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, name)
    ) WITHOUT ROWID;
    -- network_id NULL: a superuser of every network.
    CREATE TABLE service_panel_accounts (
      id INTEGER PRIMARY KEY,
      network_id INTEGER REFERENCES service_networks(id),
      username TEXT NOT NULL COLLATE NOCASE UNIQUE,
      password_hash TEXT NOT NULL,
      role TEXT NOT NULL,
      disabled INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX service_panel_accounts_network ON service_panel_accounts (network_id, username);
    -- Only the SHA-256 of a session id is stored; network_id is the network the session is looking at.
    CREATE TABLE service_panel_sessions (
      id_hash BLOB PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX service_panel_sessions_account ON service_panel_sessions (account_id);
    CREATE INDEX service_panel_sessions_expiry ON service_panel_sessions (expires_at);
    -- Every staff action through the panel or the API.
    CREATE TABLE service_audit_log (
      id INTEGER PRIMARY KEY,
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      actor TEXT NOT NULL,
      via TEXT NOT NULL,
      action TEXT NOT NULL,
      subject TEXT,
      detail TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX service_audit_log_network ON service_audit_log (network_id, id);
    -- The charts count a bounded range of days from the index alone.
    CREATE INDEX service_punishments_created_type ON service_punishments (network_id, created_at, type_ordinal);
    CREATE INDEX service_tickets_created ON service_tickets (network_id, created_at);
    CREATE INDEX service_tickets_status_created ON service_tickets (network_id, status, created_at);
  `,
};
