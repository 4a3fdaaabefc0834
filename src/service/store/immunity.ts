import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { ImmunityStorePort, RoleWeight } from './ports/immunity.js';

type Role = { networkId: number; role: string };
type Player = { networkId: number; playerUuid: string };

/** The statements of {@link ImmunityStore}; the query-plan tests check each one's plan. */
export const IMMUNITY_STATEMENTS = {
  saveRole: prepare<Role & { weight: number; nowMs: number }, never>('immunity.saveRole', ({ db }, p) =>
    db
      .insertInto('service_role_weights')
      .values({ network_id: p.networkId, role: p.role, weight: p.weight, updated_at: p.nowMs })
      .onConflict((conflict) =>
        conflict.columns(['network_id', 'role']).doUpdateSet((update) => ({
          weight: update.ref('excluded.weight'),
          updated_at: update.ref('excluded.updated_at'),
        })),
      ),
  ),
  removeRole: prepare<Role, never>('immunity.removeRole', ({ db }, p) =>
    db.deleteFrom('service_role_weights').where('network_id', '=', p.networkId).where('role', '=', p.role),
  ),
  roleWeight: prepare<Role, { weight: number | string }>('immunity.roleWeight', ({ db }, p) =>
    db
      .selectFrom('service_role_weights')
      .select('weight')
      .where('network_id', '=', p.networkId)
      .where('role', '=', p.role),
  ),
  roleWeights: prepare<{ networkId: number }, RoleWeight>('immunity.roleWeights', ({ db }, p) =>
    db
      .selectFrom('service_role_weights')
      .select(['role', 'weight'])
      .where('network_id', '=', p.networkId)
      .orderBy('role')
      .limit(raw.lit(300)),
  ),
  reportPlayer: prepare<Player & { weight: number; nowMs: number }, never>('immunity.reportPlayer', ({ db }, p) =>
    db
      .insertInto('service_player_weights')
      .values({ network_id: p.networkId, player_uuid: p.playerUuid, weight: p.weight, reported_at: p.nowMs })
      .onConflict((conflict) =>
        conflict.columns(['network_id', 'player_uuid']).doUpdateSet((update) => ({
          weight: update.ref('excluded.weight'),
          reported_at: update.ref('excluded.reported_at'),
        })),
      ),
  ),
  removePlayer: prepare<Player, never>('immunity.removePlayer', ({ db }, p) =>
    db
      .deleteFrom('service_player_weights')
      .where('network_id', '=', p.networkId)
      .where('player_uuid', '=', p.playerUuid),
  ),
  playerWeight: prepare<Player, { weight: number | string }>('immunity.playerWeight', ({ db }, p) =>
    db
      .selectFrom('service_player_weights')
      .select('weight')
      .where('network_id', '=', p.networkId)
      .where('player_uuid', '=', p.playerUuid),
  ),
};

const q = IMMUNITY_STATEMENTS;

/** Immunity weights of panel roles and of players (as the servers last reported them). */
export class ImmunityStore implements ImmunityStorePort {
  constructor(private readonly sql: SqlContext) {}

  async saveRoleWeight(networkId: number, role: string, weight: number, nowMs: number): Promise<void> {
    if (weight > 0) await q.saveRole.run(this.sql, { networkId, role, weight, nowMs });
    else await q.removeRole.run(this.sql, { networkId, role });
  }

  async roleWeight(networkId: number, role: string): Promise<number> {
    return Number((await q.roleWeight.first(this.sql, { networkId, role }))?.weight ?? 0);
  }

  async roleWeights(networkId: number): Promise<RoleWeight[]> {
    return (await q.roleWeights.all(this.sql, { networkId })).map((row) => ({
      role: row.role,
      weight: Number(row.weight),
    }));
  }

  async reportPlayerWeight(networkId: number, playerUuid: string, weight: number, nowMs: number): Promise<void> {
    const key = { networkId, playerUuid: playerUuid.toLowerCase() };
    if (weight > 0) await q.reportPlayer.run(this.sql, { ...key, weight, nowMs });
    else await q.removePlayer.run(this.sql, key);
  }

  async playerWeight(networkId: number, playerUuid: string): Promise<number> {
    const row = await q.playerWeight.first(this.sql, { networkId, playerUuid: playerUuid.toLowerCase() });
    return Number(row?.weight ?? 0);
  }
}
