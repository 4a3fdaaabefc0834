import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import {
  type IssuedPunishment,
  ROLLBACK_PAGE,
  type RoleLimits,
  type StaffLimitStorePort,
  type StoredRoleLimits,
} from './ports/staff-limits.js';

type Role = { networkId: number; role: string };
type Issuer = { networkId: number; issuerName: string };
const LIMIT_COLUMNS = [
  'role',
  'ban_max_ms as banMaxMs',
  'mute_max_ms as muteMaxMs',
  'hourly_max as hourlyMax',
] as const;

/** The statements of {@link StaffLimitStore}; the query-plan tests check each one's plan. */
export const STAFF_LIMIT_STATEMENTS = {
  save: prepare<Role & RoleLimits & { nowMs: number }, never>('staffLimits.save', ({ db }, p) =>
    db
      .insertInto('service_staff_role_limits')
      .values({
        network_id: p.networkId,
        role: p.role,
        ban_max_ms: p.banMaxMs,
        mute_max_ms: p.muteMaxMs,
        hourly_max: p.hourlyMax,
        updated_at: p.nowMs,
      })
      .onConflict((conflict) =>
        conflict.columns(['network_id', 'role']).doUpdateSet((update) => ({
          ban_max_ms: update.ref('excluded.ban_max_ms'),
          mute_max_ms: update.ref('excluded.mute_max_ms'),
          hourly_max: update.ref('excluded.hourly_max'),
          updated_at: update.ref('excluded.updated_at'),
        })),
      ),
  ),
  byRole: prepare<Role, StoredRoleLimits>('staffLimits.byRole', ({ db }, p) =>
    db
      .selectFrom('service_staff_role_limits')
      .select(LIMIT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('role', '=', p.role),
  ),
  ofNetwork: prepare<{ networkId: number }, StoredRoleLimits>('staffLimits.ofNetwork', ({ db }, p) =>
    db
      .selectFrom('service_staff_role_limits')
      .select(LIMIT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .orderBy('role')
      .limit(raw.lit(300)),
  ),
  countSince: prepare<Issuer & { sinceMs: number }, { count: number | string }>('staffLimits.countSince', ({ db }, p) =>
    db
      .selectFrom('service_punishments')
      .select(raw<number>`count(*)`.as('count'))
      .where('network_id', '=', p.networkId)
      .where('issuer_name', '=', p.issuerName)
      .where('created_at', '>=', p.sinceMs),
  ),
  issuedBetween: prepare<Issuer & { fromMs: number; toMs: number }, IssuedPunishment>(
    'staffLimits.issuedBetween',
    ({ db }, p) =>
      db
        .selectFrom('service_punishments')
        .select([
          'id',
          'target_uuid as targetUuid',
          'target_name as targetName',
          'type_ordinal as typeOrdinal',
          'reason',
          'duration',
          'status',
          'created_at as createdAt',
        ])
        .where('network_id', '=', p.networkId)
        .where('issuer_name', '=', p.issuerName)
        .where('created_at', '>=', p.fromMs)
        .where('created_at', '<=', p.toMs)
        .orderBy('created_at')
        .orderBy('id')
        .limit(raw.lit(ROLLBACK_PAGE)),
  ),
};

const q = STAFF_LIMIT_STATEMENTS;

const limitsOf = (row: StoredRoleLimits): StoredRoleLimits => ({
  role: row.role,
  banMaxMs: row.banMaxMs === null ? null : Number(row.banMaxMs),
  muteMaxMs: row.muteMaxMs === null ? null : Number(row.muteMaxMs),
  hourlyMax: row.hourlyMax === null ? null : Number(row.hourlyMax),
});

/** Limits per panel role, and what one issuer issued (the hourly limit, rollback). */
export class StaffLimitStore implements StaffLimitStorePort {
  constructor(private readonly sql: SqlContext) {}

  async save(networkId: number, role: string, limits: RoleLimits, nowMs: number): Promise<void> {
    await q.save.run(this.sql, { networkId, role, ...limits, nowMs });
  }

  async find(networkId: number, role: string): Promise<RoleLimits | undefined> {
    const row = await q.byRole.first(this.sql, { networkId, role });
    if (!row) return undefined;
    const { role: _role, ...limits } = limitsOf(row);
    return limits;
  }

  async list(networkId: number): Promise<StoredRoleLimits[]> {
    return (await q.ofNetwork.all(this.sql, { networkId })).map(limitsOf);
  }

  async countIssuedSince(networkId: number, issuerName: string, sinceMs: number): Promise<number> {
    return Number((await q.countSince.first(this.sql, { networkId, issuerName, sinceMs }))?.count ?? 0);
  }

  async issuedBetween(
    networkId: number,
    issuerName: string,
    fromMs: number,
    toMs: number,
  ): Promise<IssuedPunishment[]> {
    const rows = await q.issuedBetween.all(this.sql, { networkId, issuerName, fromMs, toMs });
    return rows.map((row) => ({ ...row, duration: Number(row.duration), createdAt: Number(row.createdAt) }));
  }
}
