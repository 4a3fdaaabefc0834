import { isSqlTrue, type SqlBoolean } from './sql-boolean.js';

/** A staff account of the panel; `networkId` null is a superuser of every network. */
export interface PanelAccount {
  id: number;
  networkId: number | null;
  username: string;
  passwordHash: string;
  role: string;
  disabled: boolean;
  /** A confirmed TOTP secret: logins ask for a code after the password. */
  twoFactorEnabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** An account's TOTP secrets, read only where a code is checked or set up. */
export interface TotpState {
  /** The confirmed secret (base32), or null without two-factor. */
  secret: string | null;
  /** A secret being set up, until a code from it confirms it. */
  pendingSecret: string | null;
  /** The newest time step a code was accepted for; codes of that step or before are refused. */
  lastStep: number | null;
}

/** A row of `service_panel_accounts` as both databases return it. */
export interface PanelAccountRow {
  id: number;
  network_id: number | null;
  username: string;
  password_hash: string;
  role: string;
  disabled: SqlBoolean;
  totp_secret: string | null;
  created_at: number;
  updated_at: number;
}

/** The columns of {@link TotpState}, as both databases' statements select them. */
export const TOTP_COLUMNS =
  'totp_secret AS secret, totp_pending_secret AS "pendingSecret", totp_last_step AS "lastStep"';

export function toPanelAccount(row: PanelAccountRow): PanelAccount {
  return {
    id: row.id,
    networkId: row.network_id,
    username: row.username,
    passwordHash: row.password_hash,
    role: row.role,
    disabled: isSqlTrue(row.disabled),
    twoFactorEnabled: row.totp_secret !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
