export type { PanelAccount } from '../panel-account-rows.js';
export type { NewPanelAccount } from '../panel-accounts.js';

import type { PanelAccount } from '../panel-account-rows.js';
import type { NewPanelAccount } from '../panel-accounts.js';

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
}
