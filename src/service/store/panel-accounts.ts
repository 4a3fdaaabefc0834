import type { Db } from '../../db/open-db.js';
import {
  type PanelAccount,
  type PanelAccountRow,
  TOTP_COLUMNS,
  type TotpState,
  toPanelAccount,
} from './panel-account-rows.js';

export interface NewPanelAccount {
  networkId: number | null;
  username: string;
  passwordHash: string;
  role: string;
  nowMs: number;
}

/** The statements of {@link PanelAccountStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PANEL_ACCOUNT_SQL = {
  insert: `INSERT INTO service_panel_accounts (network_id, username, password_hash, role, created_at, updated_at)
       VALUES (@networkId, @username, @passwordHash, @role, @nowMs, @nowMs)`,
  byUsername: 'SELECT * FROM service_panel_accounts WHERE username = ?',
  byId: 'SELECT * FROM service_panel_accounts WHERE id = ?',
  // A network's staff and the superusers, who work in every network.
  ofNetwork: `SELECT * FROM service_panel_accounts WHERE network_id = ? OR network_id IS NULL ORDER BY username
       LIMIT 1000`,
  setRole: 'UPDATE service_panel_accounts SET role = @role, updated_at = @nowMs WHERE id = @id',
  setDisabled: 'UPDATE service_panel_accounts SET disabled = @disabled, updated_at = @nowMs WHERE id = @id',
  setPassword: 'UPDATE service_panel_accounts SET password_hash = @passwordHash, updated_at = @nowMs WHERE id = @id',
  countWithRole: 'SELECT count(*) AS count FROM service_panel_accounts WHERE network_id = ? AND role = ?',
  totpOf: `SELECT ${TOTP_COLUMNS} FROM service_panel_accounts WHERE id = ?`,
  setPendingTotp: 'UPDATE service_panel_accounts SET totp_pending_secret = @secret, updated_at = @nowMs WHERE id = @id',
  // Only the secret the page showed: a second set-up started meanwhile makes this one fail.
  confirmTotp: `UPDATE service_panel_accounts
       SET totp_secret = @secret, totp_pending_secret = NULL, totp_last_step = @step, updated_at = @nowMs
       WHERE id = @id AND totp_pending_secret = @secret`,
  // One statement decides, so two logins racing with the same code (on any instance) cannot both pass.
  useTotpStep: `UPDATE service_panel_accounts SET totp_last_step = @step
       WHERE id = @id AND totp_secret = @secret AND (totp_last_step IS NULL OR totp_last_step < @step)`,
  clearTotp: `UPDATE service_panel_accounts
       SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL, updated_at = @nowMs WHERE id = @id`,
} as const;

/** Staff accounts; passwords only ever as argon2 hashes. */
export class PanelAccountStore {
  private readonly insertStatement;
  private readonly byUsername;
  private readonly byId;
  private readonly ofNetwork;
  private readonly roleStatement;
  private readonly disabledStatement;
  private readonly passwordStatement;
  private readonly countStatement;
  private readonly totpStatement;
  private readonly pendingTotpStatement;
  private readonly confirmTotpStatement;
  private readonly useTotpStepStatement;
  private readonly clearTotpStatement;

  constructor(db: Db) {
    this.insertStatement = db.prepare<NewPanelAccount>(PANEL_ACCOUNT_SQL.insert);
    this.byUsername = db.prepare<[string], PanelAccountRow>(PANEL_ACCOUNT_SQL.byUsername);
    this.byId = db.prepare<[number], PanelAccountRow>(PANEL_ACCOUNT_SQL.byId);
    this.ofNetwork = db.prepare<[number], PanelAccountRow>(PANEL_ACCOUNT_SQL.ofNetwork);
    this.roleStatement = db.prepare<{ id: number; role: string; nowMs: number }>(PANEL_ACCOUNT_SQL.setRole);
    this.disabledStatement = db.prepare<{ id: number; disabled: number; nowMs: number }>(PANEL_ACCOUNT_SQL.setDisabled);
    this.passwordStatement = db.prepare<{ id: number; passwordHash: string; nowMs: number }>(
      PANEL_ACCOUNT_SQL.setPassword,
    );
    this.countStatement = db.prepare<[number, string], { count: number }>(PANEL_ACCOUNT_SQL.countWithRole);
    this.totpStatement = db.prepare<[number], TotpState>(PANEL_ACCOUNT_SQL.totpOf);
    this.pendingTotpStatement = db.prepare<{ id: number; secret: string | null; nowMs: number }>(
      PANEL_ACCOUNT_SQL.setPendingTotp,
    );
    this.confirmTotpStatement = db.prepare<{ id: number; secret: string; step: number; nowMs: number }>(
      PANEL_ACCOUNT_SQL.confirmTotp,
    );
    this.useTotpStepStatement = db.prepare<{ id: number; secret: string; step: number }>(PANEL_ACCOUNT_SQL.useTotpStep);
    this.clearTotpStatement = db.prepare<{ id: number; nowMs: number }>(PANEL_ACCOUNT_SQL.clearTotp);
  }

  /** The new account's id, or undefined when the username is taken (in any network, any case). */
  create(account: NewPanelAccount): number | undefined {
    if (this.byUsername.get(account.username)) return undefined;
    return Number(this.insertStatement.run(account).lastInsertRowid);
  }

  findByUsername(username: string): PanelAccount | undefined {
    const row = this.byUsername.get(username);
    return row && toPanelAccount(row);
  }

  find(id: number): PanelAccount | undefined {
    const row = this.byId.get(id);
    return row && toPanelAccount(row);
  }

  /** The accounts that work in a network: its own and the superusers (at most 1000). */
  ofNetworkAndSuperusers(networkId: number): PanelAccount[] {
    return this.ofNetwork.all(networkId).map(toPanelAccount);
  }

  setRole(id: number, role: string, nowMs: number): void {
    this.roleStatement.run({ id, role, nowMs });
  }

  setDisabled(id: number, disabled: boolean, nowMs: number): void {
    this.disabledStatement.run({ id, disabled: disabled ? 1 : 0, nowMs });
  }

  setPassword(id: number, passwordHash: string, nowMs: number): void {
    this.passwordStatement.run({ id, passwordHash, nowMs });
  }

  /** How many of a network's accounts hold a role (a custom role in use cannot be deleted). */
  countWithRole(networkId: number, role: string): number {
    return this.countStatement.get(networkId, role)?.count ?? 0;
  }

  /** The account's TOTP secrets; undefined for an unknown account. */
  totpOf(id: number): TotpState | undefined {
    return this.totpStatement.get(id);
  }

  /** Keeps a secret being set up (null drops it); the confirmed one is untouched. */
  setPendingTotp(id: number, secret: string | null, nowMs: number): void {
    this.pendingTotpStatement.run({ id, secret, nowMs });
  }

  /** Makes the pending secret the account's, when it still is `secret`; `step` is the confirming code's. */
  confirmTotp(id: number, secret: string, step: number, nowMs: number): boolean {
    return this.confirmTotpStatement.run({ id, secret, step, nowMs }).changes === 1;
  }

  /** Spends `step` of the account's secret `secret`: false when that step or a later one was used already. */
  useTotpStep(id: number, secret: string, step: number): boolean {
    return this.useTotpStepStatement.run({ id, secret, step }).changes === 1;
  }

  /** Removes two-factor: the secret, any pending one and the last step. */
  clearTotp(id: number, nowMs: number): void {
    this.clearTotpStatement.run({ id, nowMs });
  }
}
