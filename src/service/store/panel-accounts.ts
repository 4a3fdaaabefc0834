import { sql as raw, type Selectable } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { PanelAccountsTable } from '../db/tables.js';
import { toPanelAccount } from './panel-account-rows.js';
import type { NewPanelAccount, PanelAccount, PanelAccountStorePort, TotpState } from './ports/panel-accounts.js';

/** The columns an account is rendered from (`toPanelAccount`); its secrets are read only by `totpOf`. */
const ACCOUNT = [
  'id',
  'network_id',
  'username',
  'password_hash',
  'role',
  'disabled',
  'totp_secret',
  'created_at',
  'updated_at',
] as const;
type AccountRow = Pick<Selectable<PanelAccountsTable>, (typeof ACCOUNT)[number]>;

type ById = { id: number };
type Totp = ById & { secret: string; step: number };

/** The statements of {@link PanelAccountStore}; the query-plan tests check each one's plan. */
export const PANEL_ACCOUNT_STATEMENTS = {
  // A username taken in any case, by any network (its unique index), is refused: no id comes back.
  insert: prepare<NewPanelAccount, { id: number }>('panelAccounts.insert', ({ db }, p) =>
    db
      .insertInto('service_panel_accounts')
      .values({
        network_id: p.networkId,
        username: p.username,
        password_hash: p.passwordHash,
        role: p.role,
        created_at: p.nowMs,
        updated_at: p.nowMs,
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id'),
  ),
  byUsername: prepare<{ username: string }, AccountRow>('panelAccounts.byUsername', ({ db, choices }, p) =>
    db
      .selectFrom('service_panel_accounts')
      .select(ACCOUNT)
      .where(choices.foldedName('username'), '=', choices.foldedValue(p.username)),
  ),
  byId: prepare<ById, AccountRow>('panelAccounts.byId', ({ db }, p) =>
    db.selectFrom('service_panel_accounts').select(ACCOUNT).where('id', '=', p.id),
  ),
  // A network's staff and the superusers, who work in every network.
  ofNetwork: prepare<{ networkId: number }, AccountRow>('panelAccounts.ofNetwork', ({ db, choices }, p) =>
    db
      .selectFrom('service_panel_accounts')
      .select(ACCOUNT)
      .where((eb) => eb.or([eb('network_id', '=', p.networkId), eb('network_id', 'is', null)]))
      .orderBy(choices.foldedName('username'))
      .limit(raw.lit(1000)),
  ),
  setRole: prepare<ById & { role: string; nowMs: number }, never>('panelAccounts.setRole', ({ db }, p) =>
    db.updateTable('service_panel_accounts').set({ role: p.role, updated_at: p.nowMs }).where('id', '=', p.id),
  ),
  setDisabled: prepare<ById & { disabled: boolean; nowMs: number }, never>('panelAccounts.setDisabled', ({ db }, p) =>
    db.updateTable('service_panel_accounts').set({ disabled: p.disabled, updated_at: p.nowMs }).where('id', '=', p.id),
  ),
  setPassword: prepare<ById & { passwordHash: string; nowMs: number }, never>(
    'panelAccounts.setPassword',
    ({ db }, p) =>
      db
        .updateTable('service_panel_accounts')
        .set({ password_hash: p.passwordHash, updated_at: p.nowMs })
        .where('id', '=', p.id),
  ),
  countWithRole: prepare<{ networkId: number; role: string }, { count: number }>(
    'panelAccounts.countWithRole',
    ({ db }, p) =>
      db
        .selectFrom('service_panel_accounts')
        .select(raw<number>`count(*)`.as('count'))
        .where('network_id', '=', p.networkId)
        .where('role', '=', p.role),
  ),
  totpOf: prepare<ById, TotpState>('panelAccounts.totpOf', ({ db }, p) =>
    db
      .selectFrom('service_panel_accounts')
      .select(['totp_secret as secret', 'totp_pending_secret as pendingSecret', 'totp_last_step as lastStep'])
      .where('id', '=', p.id),
  ),
  setPendingTotp: prepare<ById & { secret: string | null; nowMs: number }, never>(
    'panelAccounts.setPendingTotp',
    ({ db }, p) =>
      db
        .updateTable('service_panel_accounts')
        .set({ totp_pending_secret: p.secret, updated_at: p.nowMs })
        .where('id', '=', p.id),
  ),
  // Only the secret the page showed: a second set-up started meanwhile makes this one fail.
  confirmTotp: prepare<Totp & { nowMs: number }, never>('panelAccounts.confirmTotp', ({ db }, p) =>
    db
      .updateTable('service_panel_accounts')
      .set({ totp_secret: p.secret, totp_pending_secret: null, totp_last_step: p.step, updated_at: p.nowMs })
      .where('id', '=', p.id)
      .where('totp_pending_secret', '=', p.secret),
  ),
  // One statement decides, so two logins racing with the same code (on any instance) cannot both pass.
  useTotpStep: prepare<Totp, never>('panelAccounts.useTotpStep', ({ db }, p) =>
    db
      .updateTable('service_panel_accounts')
      .set({ totp_last_step: p.step })
      .where('id', '=', p.id)
      .where('totp_secret', '=', p.secret)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', p.step)])),
  ),
  clearTotp: prepare<ById & { nowMs: number }, never>('panelAccounts.clearTotp', ({ db }, p) =>
    db
      .updateTable('service_panel_accounts')
      .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null, updated_at: p.nowMs })
      .where('id', '=', p.id),
  ),
};

const q = PANEL_ACCOUNT_STATEMENTS;

/** Staff accounts; passwords only ever as argon2 hashes. Usernames match in any case. */
export class PanelAccountStore implements PanelAccountStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** The new account's id, or undefined when the username is taken (in any network, any case). */
  async create(account: NewPanelAccount): Promise<number | undefined> {
    return (await q.insert.first(this.sql, account))?.id;
  }

  async findByUsername(username: string): Promise<PanelAccount | undefined> {
    const row = await q.byUsername.first(this.sql, { username });
    return row && toPanelAccount(row);
  }

  async find(id: number): Promise<PanelAccount | undefined> {
    const row = await q.byId.first(this.sql, { id });
    return row && toPanelAccount(row);
  }

  /** The accounts that work in a network: its own and the superusers (at most 1000). */
  async ofNetworkAndSuperusers(networkId: number): Promise<PanelAccount[]> {
    return (await q.ofNetwork.all(this.sql, { networkId })).map(toPanelAccount);
  }

  async setRole(id: number, role: string, nowMs: number): Promise<void> {
    await q.setRole.run(this.sql, { id, role, nowMs });
  }

  async setDisabled(id: number, disabled: boolean, nowMs: number): Promise<void> {
    await q.setDisabled.run(this.sql, { id, disabled, nowMs });
  }

  async setPassword(id: number, passwordHash: string, nowMs: number): Promise<void> {
    await q.setPassword.run(this.sql, { id, passwordHash, nowMs });
  }

  /** How many of a network's accounts hold a role (a custom role in use cannot be deleted). */
  async countWithRole(networkId: number, role: string): Promise<number> {
    return (await q.countWithRole.first(this.sql, { networkId, role }))?.count ?? 0;
  }

  /** The account's TOTP secrets; undefined for an unknown account. */
  totpOf(id: number): Promise<TotpState | undefined> {
    return q.totpOf.first(this.sql, { id });
  }

  /** Keeps a secret being set up (null drops it); the confirmed one is untouched. */
  async setPendingTotp(id: number, secret: string | null, nowMs: number): Promise<void> {
    await q.setPendingTotp.run(this.sql, { id, secret, nowMs });
  }

  /** Makes the pending secret the account's, when it still is `secret`; `step` is the confirming code's. */
  async confirmTotp(id: number, secret: string, step: number, nowMs: number): Promise<boolean> {
    return (await q.confirmTotp.run(this.sql, { id, secret, step, nowMs })) === 1;
  }

  /** Spends `step` of the account's secret `secret`: false when that step or a later one was used already. */
  async useTotpStep(id: number, secret: string, step: number): Promise<boolean> {
    return (await q.useTotpStep.run(this.sql, { id, secret, step })) === 1;
  }

  /** Removes two-factor: the secret, any pending one and the last step. */
  async clearTotp(id: number, nowMs: number): Promise<void> {
    await q.clearTotp.run(this.sql, { id, nowMs });
  }
}
