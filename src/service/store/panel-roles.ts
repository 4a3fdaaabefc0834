import type { Db } from '../../db/open-db.js';
import { type CustomRole, type PanelRoleRow, toCustomRole } from './panel-role-rows.js';

/** The statements of {@link PanelRoleStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PANEL_ROLE_SQL = {
  save: `INSERT INTO service_panel_roles (network_id, name, permissions, created_at)
       VALUES (@networkId, @name, @permissions, @nowMs)
       ON CONFLICT (network_id, name) DO UPDATE SET permissions = excluded.permissions`,
  ofNetwork: 'SELECT name, permissions FROM service_panel_roles WHERE network_id = ? ORDER BY name LIMIT 200',
  byName: 'SELECT name, permissions FROM service_panel_roles WHERE network_id = ? AND name = ?',
  remove: 'DELETE FROM service_panel_roles WHERE network_id = ? AND name = ?',
  requireTwoFactor: `INSERT INTO service_panel_two_factor_roles (network_id, role, created_at)
       VALUES (@networkId, @role, @nowMs) ON CONFLICT (network_id, role) DO NOTHING`,
  dropTwoFactor: 'DELETE FROM service_panel_two_factor_roles WHERE network_id = ? AND role = ?',
  twoFactorRequired: 'SELECT 1 AS required FROM service_panel_two_factor_roles WHERE network_id = ? AND role = ?',
  twoFactorRoles: 'SELECT role FROM service_panel_two_factor_roles WHERE network_id = ? ORDER BY role LIMIT 300',
} as const;

/** Custom roles per network (at most 200 are listed), and the roles a network requires two-factor of. */
export class PanelRoleStore {
  private readonly saveStatement;
  private readonly ofNetwork;
  private readonly byName;
  private readonly removeStatement;
  private readonly requireStatement;
  private readonly dropStatement;
  private readonly requiredStatement;
  private readonly requiringStatement;
  private readonly removeBoth;

  constructor(db: Db) {
    this.saveStatement = db.prepare<{ networkId: number; name: string; permissions: string; nowMs: number }>(
      PANEL_ROLE_SQL.save,
    );
    this.ofNetwork = db.prepare<[number], PanelRoleRow>(PANEL_ROLE_SQL.ofNetwork);
    this.byName = db.prepare<[number, string], PanelRoleRow>(PANEL_ROLE_SQL.byName);
    this.removeStatement = db.prepare<[number, string]>(PANEL_ROLE_SQL.remove);
    this.requireStatement = db.prepare<{ networkId: number; role: string; nowMs: number }>(
      PANEL_ROLE_SQL.requireTwoFactor,
    );
    this.dropStatement = db.prepare<[number, string]>(PANEL_ROLE_SQL.dropTwoFactor);
    this.requiredStatement = db.prepare<[number, string], { required: number }>(PANEL_ROLE_SQL.twoFactorRequired);
    this.requiringStatement = db.prepare<[number], { role: string }>(PANEL_ROLE_SQL.twoFactorRoles);
    this.removeBoth = db.transaction((networkId: number, name: string) => {
      this.removeStatement.run(networkId, name);
      this.dropStatement.run(networkId, name);
    });
  }

  /** Creates the role or replaces its permissions. */
  save(networkId: number, role: CustomRole, nowMs: number): void {
    this.saveStatement.run({ networkId, name: role.name, permissions: JSON.stringify(role.permissions), nowMs });
  }

  list(networkId: number): CustomRole[] {
    return this.ofNetwork.all(networkId).map(toCustomRole);
  }

  find(networkId: number, name: string): CustomRole | undefined {
    const row = this.byName.get(networkId, name);
    return row && toCustomRole(row);
  }

  /** Deletes the custom role and its two-factor requirement. */
  remove(networkId: number, name: string): void {
    this.removeBoth(networkId, name);
  }

  /** Whether holders of `role` (built-in or custom) in the network must use two-factor. */
  setTwoFactorRequired(networkId: number, role: string, required: boolean, nowMs: number): void {
    if (required) this.requireStatement.run({ networkId, role, nowMs });
    else this.dropStatement.run(networkId, role);
  }

  isTwoFactorRequired(networkId: number, role: string): boolean {
    return this.requiredStatement.get(networkId, role) !== undefined;
  }

  /** The roles of the network that require two-factor, by name (at most 300). */
  twoFactorRoles(networkId: number): string[] {
    return this.requiringStatement.all(networkId).map((row) => row.role);
  }
}
