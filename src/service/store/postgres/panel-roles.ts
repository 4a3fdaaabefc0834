import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { type CustomRole, type PanelRoleRow, toCustomRole } from '../panel-role-rows.js';

/** The statements of {@link PgPanelRoleStore}. */
export const PG_PANEL_ROLE_SQL = pgStatements('panelRoles', {
  save: `INSERT INTO service_panel_roles (network_id, name, permissions, created_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (network_id, name) DO UPDATE SET permissions = excluded.permissions`,
  ofNetwork: 'SELECT name, permissions FROM service_panel_roles WHERE network_id = $1 ORDER BY name LIMIT 200',
  byName: 'SELECT name, permissions FROM service_panel_roles WHERE network_id = $1 AND name = $2',
  // The role and its two-factor requirement go together.
  remove: `WITH requirement AS (DELETE FROM service_panel_two_factor_roles WHERE network_id = $1 AND role = $2)
    DELETE FROM service_panel_roles WHERE network_id = $1 AND name = $2`,
  requireTwoFactor: `INSERT INTO service_panel_two_factor_roles (network_id, role, created_at) VALUES ($1, $2, $3)
    ON CONFLICT (network_id, role) DO NOTHING`,
  dropTwoFactor: 'DELETE FROM service_panel_two_factor_roles WHERE network_id = $1 AND role = $2',
  twoFactorRequired: 'SELECT 1 AS required FROM service_panel_two_factor_roles WHERE network_id = $1 AND role = $2',
  twoFactorRoles: 'SELECT role FROM service_panel_two_factor_roles WHERE network_id = $1 ORDER BY role LIMIT 300',
});

/** Custom panel roles per network on PostgreSQL (at most 200 are listed), and the roles requiring two-factor. */
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

  /** Deletes the custom role and its two-factor requirement. */
  async remove(networkId: number, name: string): Promise<void> {
    await this.db.run(PG_PANEL_ROLE_SQL.remove, [networkId, name]);
  }

  /** Whether holders of `role` (built-in or custom) in the network must use two-factor. */
  async setTwoFactorRequired(networkId: number, role: string, required: boolean, nowMs: number): Promise<void> {
    if (required) await this.db.run(PG_PANEL_ROLE_SQL.requireTwoFactor, [networkId, role, nowMs]);
    else await this.db.run(PG_PANEL_ROLE_SQL.dropTwoFactor, [networkId, role]);
  }

  async isTwoFactorRequired(networkId: number, role: string): Promise<boolean> {
    return (await this.db.row(PG_PANEL_ROLE_SQL.twoFactorRequired, [networkId, role])) !== undefined;
  }

  /** The roles of the network that require two-factor, by name (at most 300). */
  async twoFactorRoles(networkId: number): Promise<string[]> {
    return (await this.db.rows<{ role: string }>(PG_PANEL_ROLE_SQL.twoFactorRoles, [networkId])).map((row) => row.role);
  }
}
