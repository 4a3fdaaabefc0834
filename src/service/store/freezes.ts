import type { Selectable } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { FreezesTable } from '../db/tables.js';
import type { Freeze, FreezeStorePort } from './ports/freezes.js';

const COLUMNS = [
  'network_id',
  'player_uuid',
  'player_name',
  'reason',
  'issuer_name',
  'server_name',
  'frozen_at',
] as const;
type FreezeRow = Pick<Selectable<FreezesTable>, (typeof COLUMNS)[number]>;

type Holder = { networkId: number; playerUuid: string };

const toFreeze = (row: FreezeRow): Freeze => ({
  networkId: Number(row.network_id),
  playerUuid: row.player_uuid,
  playerName: row.player_name,
  reason: row.reason,
  issuerName: row.issuer_name,
  serverName: row.server_name,
  frozenAt: Number(row.frozen_at),
});

/** The statements of {@link FreezeStore}; the query-plan tests check each one's plan. */
export const FREEZE_STATEMENTS = {
  insert: prepare<Freeze, never>('freezes.insert', ({ db }, p) =>
    db
      .insertInto('service_freezes')
      .values({
        network_id: p.networkId,
        player_uuid: p.playerUuid,
        player_name: p.playerName,
        reason: p.reason,
        issuer_name: p.issuerName,
        server_name: p.serverName,
        frozen_at: p.frozenAt,
      })
      .onConflict((conflict) => conflict.doNothing()),
  ),
  remove: prepare<Holder, never>('freezes.remove', ({ db }, p) =>
    db.deleteFrom('service_freezes').where('network_id', '=', p.networkId).where('player_uuid', '=', p.playerUuid),
  ),
  find: prepare<Holder, FreezeRow>('freezes.find', ({ db }, p) =>
    db
      .selectFrom('service_freezes')
      .select(COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('player_uuid', '=', p.playerUuid),
  ),
  list: prepare<{ networkId: number; limit: number }, FreezeRow>('freezes.list', ({ db }, p) =>
    db
      .selectFrom('service_freezes')
      .select(COLUMNS)
      .where('network_id', '=', p.networkId)
      .orderBy('frozen_at', 'desc')
      .orderBy('player_uuid')
      .limit(p.limit),
  ),
  count: prepare<{ networkId: number }, { frozen: number | string | bigint }>('freezes.count', ({ db }, p) =>
    db
      .selectFrom('service_freezes')
      .select((eb) => eb.fn.countAll().as('frozen'))
      .where('network_id', '=', p.networkId),
  ),
};

const q = FREEZE_STATEMENTS;

/** Frozen players, one row each while frozen. */
export class FreezeStore implements FreezeStorePort {
  constructor(private readonly sql: SqlContext) {}

  async freeze(freeze: Freeze): Promise<boolean> {
    return (await q.insert.run(this.sql, { ...freeze, playerUuid: freeze.playerUuid.toLowerCase() })) === 1;
  }

  async unfreeze(networkId: number, playerUuid: string): Promise<boolean> {
    return (await q.remove.run(this.sql, { networkId, playerUuid: playerUuid.toLowerCase() })) === 1;
  }

  async find(networkId: number, playerUuid: string): Promise<Freeze | undefined> {
    const row = await q.find.first(this.sql, { networkId, playerUuid: playerUuid.toLowerCase() });
    return row && toFreeze(row);
  }

  async list(networkId: number, limit: number): Promise<Freeze[]> {
    return (await q.list.all(this.sql, { networkId, limit })).map(toFreeze);
  }

  async count(networkId: number): Promise<number> {
    const row = await q.count.first(this.sql, { networkId });
    return Number(row?.frozen ?? 0);
  }
}
