import type { PanelAccount, TotpState } from '../panel-account-rows.js';

export interface NewPanelAccount {
  networkId: number | null;
  username: string;
  passwordHash: string;
  role: string;
  nowMs: number;
}

export type { PanelAccount, TotpState } from '../panel-account-rows.js';

/** Staff accounts of the panel; a superuser has no network. Usernames are unique across networks. */
export interface PanelAccountStorePort {
  /** The new account's id; undefined when the username is taken. */
  create(account: NewPanelAccount): Promise<number | undefined>;
  findByUsername(username: string): Promise<PanelAccount | undefined>;
  find(id: number): Promise<PanelAccount | undefined>;
  /** The network's accounts and every superuser, by username, at most 1000. */
  ofNetworkAndSuperusers(networkId: number): Promise<PanelAccount[]>;
  setRole(id: number, role: string, nowMs: number): Promise<void>;
  setDisabled(id: number, disabled: boolean, nowMs: number): Promise<void>;
  setPassword(id: number, passwordHash: string, nowMs: number): Promise<void>;
  countWithRole(networkId: number, role: string): Promise<number>;
  /** The account's TOTP secrets; undefined for an unknown account. */
  totpOf(id: number): Promise<TotpState | undefined>;
  /** Keeps a secret being set up (null drops it); the confirmed one is untouched. */
  setPendingTotp(id: number, secret: string | null, nowMs: number): Promise<void>;
  /** Makes the pending secret the account's, when it still is `secret`; `step` is the confirming code's. */
  confirmTotp(id: number, secret: string, step: number, nowMs: number): Promise<boolean>;
  /** Spends `step` of the account's secret `secret`: false when that step or a later one was used already. */
  useTotpStep(id: number, secret: string, step: number): Promise<boolean>;
  /** Removes two-factor: the secret, any pending one and the last step. */
  clearTotp(id: number, nowMs: number): Promise<void>;
}
