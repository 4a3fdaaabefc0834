import type { SchemaMigration } from '../../db/schema-migrations.js';

/**
 * Schema version 16: what keeps staff logins safe from strangers. TOTP secrets and single-use
 * recovery codes (two-factor), the devices that logged in before (so a stranger's wrong passwords
 * never lock their owner out), the roles a network requires two-factor of, and sessions that are
 * waiting for their second factor. PostgreSQL's step 14 (src/service/store/postgres/schema-panel-two-factor.ts)
 * is the same.
 */
export const PANEL_TWO_FACTOR: SchemaMigration = {
  version: 16,
  name: 'panel: two-factor secrets and recovery codes, trusted login devices, roles requiring two-factor',
  up: `
    -- The confirmed TOTP secret (base32), the one being set up until a code confirms it, and the
    -- newest time step a code was accepted for: a code is used once.
    ALTER TABLE service_panel_accounts ADD COLUMN totp_secret TEXT;
    ALTER TABLE service_panel_accounts ADD COLUMN totp_pending_secret TEXT;
    ALTER TABLE service_panel_accounts ADD COLUMN totp_last_step INTEGER;
    -- 'code': the password was right and the second factor is still to come; such a session opens no page.
    ALTER TABLE service_panel_sessions ADD COLUMN stage TEXT NOT NULL DEFAULT 'full';
    -- Only the SHA-256 of each recovery code is kept.
    CREATE TABLE service_panel_recovery_codes (
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      code_hash BLOB NOT NULL,
      created_at INTEGER NOT NULL,
      used_at INTEGER,
      PRIMARY KEY (account_id, code_hash)
    ) WITHOUT ROWID;
    -- A browser that logged in to this account: the SHA-256 of the token of its device cookie.
    CREATE TABLE service_panel_devices (
      token_hash BLOB PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX service_panel_devices_account ON service_panel_devices (account_id, created_at);
    CREATE INDEX service_panel_devices_expiry ON service_panel_devices (expires_at);
    -- Roles (built-in or custom) whose holders must use two-factor in this network.
    CREATE TABLE service_panel_two_factor_roles (
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      role TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, role)
    ) WITHOUT ROWID;
  `,
};
