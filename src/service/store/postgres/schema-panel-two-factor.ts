/** PostgreSQL step 14: SQLite's schema version 16 (src/service/db/panel-two-factor.ts). */
export const PG_PANEL_TWO_FACTOR: { version: number; name: string; up: string } = {
  version: 14,
  name: 'panel: two-factor secrets and recovery codes, trusted login devices, roles requiring two-factor (SQLite 16)',
  up: `
    ALTER TABLE service_panel_accounts ADD COLUMN totp_secret TEXT;
    ALTER TABLE service_panel_accounts ADD COLUMN totp_pending_secret TEXT;
    ALTER TABLE service_panel_accounts ADD COLUMN totp_last_step BIGINT;
    ALTER TABLE service_panel_sessions ADD COLUMN stage TEXT NOT NULL DEFAULT 'full';
    CREATE TABLE service_panel_recovery_codes (
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      code_hash BYTEA NOT NULL,
      created_at BIGINT NOT NULL,
      used_at BIGINT,
      PRIMARY KEY (account_id, code_hash)
    );
    CREATE TABLE service_panel_devices (
      token_hash BYTEA PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    );
    CREATE INDEX service_panel_devices_account ON service_panel_devices (account_id, created_at);
    CREATE INDEX service_panel_devices_expiry ON service_panel_devices (expires_at);
    CREATE TABLE service_panel_two_factor_roles (
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      role TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (network_id, role)
    );
  `,
};
