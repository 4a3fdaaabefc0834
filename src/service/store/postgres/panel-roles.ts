import { type CustomRole, type PanelRoleRow, toCustomRole } from '../panel-role-rows.js';
import { type PgDb, pgStatements } from './pool.js';

/** The statements of {@link PgPanelRoleStore}. */
export const PG_PANEL_ROLE_SQL = pgStatements('panelRoles', {
  save: `INSERT INTO service_panel_roles (network_id, name, permissions, created_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (network_id, name) DO UPDATE SET permissions = excluded.permissions`,
  ofNetwork: 'SELECT name, permissions FROM service_panel_roles WHERE network_id = $1 ORDER BY name LIMIT 200',
  byName: 'SELECT name, permissions FROM service_panel_roles WHERE network_id = $1 AND name = $2',
  remove: 'DELETE FROM service_panel_roles WHERE network_id = $1 AND name = $2',
});

/** Custom panel roles per network on PostgreSQL (at most 200 are listed). */
export class PgPanelRoleStore {
  constructor(private readonly db: PgDb) {}

  /** Creates the role or replaces its permissions. */
  async save(networkId: number, role: CustomRole, nowMs: number): Promise<void> {
    await this.db.run(PG_PANEL_ROLE_SQL.save, [networkId, role.name, JSON.stringify(role.permissions), nowMs]);
  }

  async list(networkId: number): Promise<CustomRole[]> {
    return (await this.db.rows<PanelRoleRow>(PG_PANEL_ROLE_SQL.ofNetwork, [networkId])).map(toCustomRole);
  }

  async find(networkId: number, name: string): Promise<CustomRole | undefined> {
    const row = await this.db.row<PanelRoleRow>(PG_PANEL_ROLE_SQL.byName, [networkId, name]);
    return row && toCustomRole(row);
  }

  async remove(networkId: number, name: string): Promise<void> {
    await this.db.run(PG_PANEL_ROLE_SQL.remove, [networkId, name]);
  }
}
