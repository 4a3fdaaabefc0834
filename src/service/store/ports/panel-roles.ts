export type { CustomRole } from '../panel-role-rows.js';

import type { CustomRole } from '../panel-role-rows.js';

/** A network's custom panel roles (name and permissions). */
export interface PanelRoleStorePort {
  /** Creates the role or replaces its permissions. */
  save(networkId: number, role: CustomRole, nowMs: number): Promise<void>;
  /** By name, at most 200. */
  list(networkId: number): Promise<CustomRole[]>;
  find(networkId: number, name: string): Promise<CustomRole | undefined>;
  remove(networkId: number, name: string): Promise<void>;
}
