import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import {
  type PanelAccount,
  type PanelAccountRow,
  TOTP_COLUMNS,
  type TotpState,
  toPanelAccount,
} from '../panel-account-rows.js';
import type { NewPanelAccount } from '../panel-accounts.js';

const ACCOUNT_COLUMNS = 'id, network_id, username, password_hash, role, disabled, totp_secret, created_at, updated_at';

/** The statements of {@link PgPanelAccountStore}. Usernames match in any case, as SQLite's NOCASE column does. */
export const PG_PANEL_ACCOUNT_SQL = pgStatements('panelAccounts', {
  // The unique index on lower(username) refuses a name taken in any case, by any instance.
  insert: `INSERT INTO service_panel_accounts (network_id, username, password_hash, role, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT DO NOTHING RETURNING id`,
  byUsername: `SELECT ${ACCOUNT_COLUMNS} FROM service_panel_accounts WHERE lower(username) = lower($1)`,
  byId: `SELECT ${ACCOUNT_COLUMNS} FROM service_panel_accounts WHERE id = $1`,
  // A network's staff and the superusers, who work in every network.
  ofNetwork: `SELECT ${ACCOUNT_COLUMNS} FROM service_panel_accounts WHERE network_id = $1 OR network_id IS NULL
    ORDER BY lower(username) LIMIT 1000`,
  setRole: 'UPDATE service_panel_accounts SET role = $2, updated_at = $3 WHERE id = $1',
  setDisabled: 'UPDATE service_panel_accounts SET disabled = $2, updated_at = $3 WHERE id = $1',
  setPassword: 'UPDATE service_panel_accounts SET password_hash = $2, updated_at = $3 WHERE id = $1',
  countWithRole: 'SELECT count(*) AS count FROM service_panel_accounts WHERE network_id = $1 AND role = $2',
  totpOf: `SELECT ${TOTP_COLUMNS} FROM service_panel_accounts WHERE id = $1`,
  setPendingTotp: 'UPDATE service_panel_accounts SET totp_pending_secret = $2, updated_at = $3 WHERE id = $1',
  // Only the secret the page showed: a second set-up started meanwhile makes this one fail.
  confirmTotp: `UPDATE service_panel_accounts
    SET totp_secret = $2, totp_pending_secret = NULL, totp_last_step = $3, updated_at = $4
    WHERE id = $1 AND totp_pending_secret = $2`,
  // One statement decides, so two logins racing with the same code (on any instance) cannot both pass.
  useTotpStep: `UPDATE service_panel_accounts SET totp_last_step = $3
    WHERE id = $1 AND totp_secret = $2 AND (totp_last_step IS NULL OR totp_last_step < $3)`,
  clearTotp: `UPDATE service_panel_accounts
    SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL, updated_at = $2 WHERE id = $1`,
});

/** Staff accounts of the panel on PostgreSQL; passwords only ever as argon2 hashes. */
export class PgPanelAccountStore {
  constructor(private readonly db: PgDb) {}

  /** The new account's id, or undefined when the username is taken (in any network, any case). */
  async create(account: NewPanelAccount): Promise<number | undefined> {
    const values = [account.networkId, account.username, account.passwordHash, account.role, account.nowMs];
    return (await this.db.row<{ id: number }>(PG_PANEL_ACCOUNT_SQL.insert, values))?.id;
  }

  async findByUsername(username: string): Promise<PanelAccount | undefined> {
    const row = await this.db.row<PanelAccountRow>(PG_PANEL_ACCOUNT_SQL.byUsername, [username]);
    return row && toPanelAccount(row);
  }

  async find(id: number): Promise<PanelAccount | undefined> {
    const row = await this.db.row<PanelAccountRow>(PG_PANEL_ACCOUNT_SQL.byId, [id]);
    return row && toPanelAccount(row);
  }

  /** The accounts that work in a network: its own and the superusers (at most 1000). */
  async ofNetworkAndSuperusers(networkId: number): Promise<PanelAccount[]> {
    return (await this.db.rows<PanelAccountRow>(PG_PANEL_ACCOUNT_SQL.ofNetwork, [networkId])).map(toPanelAccount);
  }

  async setRole(id: number, role: string, nowMs: number): Promise<void> {
    await this.db.run(PG_PANEL_ACCOUNT_SQL.setRole, [id, role, nowMs]);
  }

  async setDisabled(id: number, disabled: boolean, nowMs: number): Promise<void> {
    await this.db.run(PG_PANEL_ACCOUNT_SQL.setDisabled, [id, disabled, nowMs]);
  }

  async setPassword(id: number, passwordHash: string, nowMs: number): Promise<void> {
    await this.db.run(PG_PANEL_ACCOUNT_SQL.setPassword, [id, passwordHash, nowMs]);
  }

  /** How many of a network's accounts hold a role (a custom role in use cannot be deleted). */
  async countWithRole(networkId: number, role: string): Promise<number> {
    return (await this.db.row<{ count: number }>(PG_PANEL_ACCOUNT_SQL.countWithRole, [networkId, role]))?.count ?? 0;
  }

  /** The account's TOTP secrets; undefined for an unknown account. */
  totpOf(id: number): Promise<TotpState | undefined> {
    return this.db.row<TotpState>(PG_PANEL_ACCOUNT_SQL.totpOf, [id]);
  }

  /** Keeps a secret being set up (null drops it); the confirmed one is untouched. */
  async setPendingTotp(id: number, secret: string | null, nowMs: number): Promise<void> {
    await this.db.run(PG_PANEL_ACCOUNT_SQL.setPendingTotp, [id, secret, nowMs]);
  }

  /** Makes the pending secret the account's, when it still is `secret`; `step` is the confirming code's. */
  async confirmTotp(id: number, secret: string, step: number, nowMs: number): Promise<boolean> {
    return (await this.db.run(PG_PANEL_ACCOUNT_SQL.confirmTotp, [id, secret, step, nowMs])) === 1;
  }

  /** Spends `step` of the account's secret `secret`: false when that step or a later one was used already. */
  async useTotpStep(id: number, secret: string, step: number): Promise<boolean> {
    return (await this.db.run(PG_PANEL_ACCOUNT_SQL.useTotpStep, [id, secret, step])) === 1;
  }

  /** Removes two-factor: the secret, any pending one and the last step. */
  async clearTotp(id: number, nowMs: number): Promise<void> {
    await this.db.run(PG_PANEL_ACCOUNT_SQL.clearTotp, [id, nowMs]);
  }
}
