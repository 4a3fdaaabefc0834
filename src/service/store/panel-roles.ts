import { sql as raw, type Selectable } from 'kysely';
import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type { PanelRolesTable } from '../db/tables.js';
import { toCustomRole } from './panel-role-rows.js';
import type { CustomRole, PanelRoleStorePort } from './ports/panel-roles.js';

type RoleRow = Pick<Selectable<PanelRolesTable>, 'name' | 'permissions'>;
type Role = { networkId: number; name: string };
type Requirement = { networkId: number; role: string };

/** The statements of {@link PanelRoleStore}; the query-plan tests check each one's plan. */
export const PANEL_ROLE_STATEMENTS = {
  save: prepare<Role & { permissions: string; nowMs: number }, never>('panelRoles.save', ({ db }, p) =>
    db
      .insertInto('service_panel_roles')
      .values({ network_id: p.networkId, name: p.name, permissions: p.permissions, created_at: p.nowMs })
      .onConflict((conflict) =>
        conflict
          .columns(['network_id', 'name'])
          .doUpdateSet((update) => ({ permissions: update.ref('excluded.permissions') })),
      ),
  ),
  ofNetwork: prepare<{ networkId: number }, RoleRow>('panelRoles.ofNetwork', ({ db }, p) =>
    db
      .selectFrom('service_panel_roles')
      .select(['name', 'permissions'])
      .where('network_id', '=', p.networkId)
      .orderBy('name')
      .limit(raw.lit(300)),
  ),
  byName: prepare<Role, RoleRow>('panelRoles.byName', ({ db }, p) =>
    db
      .selectFrom('service_panel_roles')
      .select(['name', 'permissions'])
      .where('network_id', '=', p.networkId)
      .where('name', '=', p.name),
  ),
  remove: prepare<Role, never>('panelRoles.remove', ({ db }, p) =>
    db.deleteFrom('service_panel_roles').where('network_id', '=', p.networkId).where('name', '=', p.name),
  ),
  requireTwoFactor: prepare<Requirement & { nowMs: number }, never>('panelRoles.requireTwoFactor', ({ db }, p) =>
    db
      .insertInto('service_panel_two_factor_roles')
      .values({ network_id: p.networkId, role: p.role, created_at: p.nowMs })
      .onConflict((conflict) => conflict.columns(['network_id', 'role']).doNothing()),
  ),
  dropTwoFactor: prepare<Requirement, never>('panelRoles.dropTwoFactor', ({ db }, p) =>
    db.deleteFrom('service_panel_two_factor_roles').where('network_id', '=', p.networkId).where('role', '=', p.role),
  ),
  twoFactorRequired: prepare<Requirement, { required: number }>('panelRoles.twoFactorRequired', ({ db }, p) =>
    db
      .selectFrom('service_panel_two_factor_roles')
      .select(raw.lit(1).as('required'))
      .where('network_id', '=', p.networkId)
      .where('role', '=', p.role),
  ),
  twoFactorRoles: prepare<{ networkId: number }, { role: string }>('panelRoles.twoFactorRoles', ({ db }, p) =>
    db
      .selectFrom('service_panel_two_factor_roles')
      .select('role')
      .where('network_id', '=', p.networkId)
      .orderBy('role')
      .limit(raw.lit(300)),
  ),
};

const q = PANEL_ROLE_STATEMENTS;

/** Custom roles per network (at most 300 are listed), and the roles a network requires two-factor of. */
export class PanelRoleStore implements PanelRoleStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** Creates the role or replaces its permissions. */
  async save(networkId: number, role: CustomRole, nowMs: number): Promise<void> {
    await q.save.run(this.sql, { networkId, name: role.name, permissions: JSON.stringify(role.permissions), nowMs });
  }

  async list(networkId: number): Promise<CustomRole[]> {
    return (await q.ofNetwork.all(this.sql, { networkId })).map(toCustomRole);
  }

  async find(networkId: number, name: string): Promise<CustomRole | undefined> {
    const row = await q.byName.first(this.sql, { networkId, name });
    return row && toCustomRole(row);
  }

  /** Deletes the custom role and its two-factor requirement, together. */
  remove(networkId: number, name: string): Promise<void> {
    return inTransaction(this.sql, async (sql) => {
      await q.remove.run(sql, { networkId, name });
      await q.dropTwoFactor.run(sql, { networkId, role: name });
    });
  }

  /** Whether holders of `role` (built-in or custom) in the network must use two-factor. */
  async setTwoFactorRequired(networkId: number, role: string, required: boolean, nowMs: number): Promise<void> {
    if (required) await q.requireTwoFactor.run(this.sql, { networkId, role, nowMs });
    else await q.dropTwoFactor.run(this.sql, { networkId, role });
  }

  async isTwoFactorRequired(networkId: number, role: string): Promise<boolean> {
    return (await q.twoFactorRequired.first(this.sql, { networkId, role })) !== undefined;
  }

  /** The roles of the network that require two-factor, by name (at most 300). */
  async twoFactorRoles(networkId: number): Promise<string[]> {
    return (await q.twoFactorRoles.all(this.sql, { networkId })).map((row) => row.role);
  }
}
