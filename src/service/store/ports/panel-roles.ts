export type { CustomRole } from '../panel-role-rows.js';

import type { CustomRole } from '../panel-role-rows.js';

/** A network's custom panel roles (name and permissions), and the roles it requires two-factor of. */
export interface PanelRoleStorePort {
  /** Creates the role or replaces its permissions. */
  save(networkId: number, role: CustomRole, nowMs: number): Promise<void>;
  /** By name, at most 300. */
  list(networkId: number): Promise<CustomRole[]>;
  find(networkId: number, name: string): Promise<CustomRole | undefined>;
  /** Deletes the custom role and its two-factor requirement. */
  remove(networkId: number, name: string): Promise<void>;
  /** Whether holders of `role` (built-in or custom) in the network must use two-factor. */
  setTwoFactorRequired(networkId: number, role: string, required: boolean, nowMs: number): Promise<void>;
  isTwoFactorRequired(networkId: number, role: string): Promise<boolean>;
  /** The roles of the network that require two-factor, by name (at most 300). */
  twoFactorRoles(networkId: number): Promise<string[]>;
}
