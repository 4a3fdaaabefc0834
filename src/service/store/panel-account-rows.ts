import { isSqlTrue, type SqlBoolean } from './sql-boolean.js';

/** A staff account of the panel; `networkId` null is a superuser of every network. */
export interface PanelAccount {
  id: number;
  networkId: number | null;
  username: string;
  passwordHash: string;
  role: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A row of `service_panel_accounts` as both databases return it. */
export interface PanelAccountRow {
  id: number;
  network_id: number | null;
  username: string;
  password_hash: string;
  role: string;
  disabled: SqlBoolean;
  created_at: number;
  updated_at: number;
}

export function toPanelAccount(row: PanelAccountRow): PanelAccount {
  return {
    id: row.id,
    networkId: row.network_id,
    username: row.username,
    passwordHash: row.password_hash,
    role: row.role,
    disabled: isSqlTrue(row.disabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
