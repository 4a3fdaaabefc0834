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
} as const;

/** Custom roles per network (at most 200 are listed). */
export class PanelRoleStore {
  private readonly saveStatement;
  private readonly ofNetwork;
  private readonly byName;
  private readonly removeStatement;

  constructor(db: Db) {
    this.saveStatement = db.prepare<{ networkId: number; name: string; permissions: string; nowMs: number }>(
      PANEL_ROLE_SQL.save,
    );
    this.ofNetwork = db.prepare<[number], PanelRoleRow>(PANEL_ROLE_SQL.ofNetwork);
    this.byName = db.prepare<[number, string], PanelRoleRow>(PANEL_ROLE_SQL.byName);
    this.removeStatement = db.prepare<[number, string]>(PANEL_ROLE_SQL.remove);
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

  remove(networkId: number, name: string): void {
    this.removeStatement.run(networkId, name);
  }
}
