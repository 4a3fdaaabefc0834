import { prepare, type SqlContext } from '../db/prepared.js';
import type { PlayerLogin, PlayerRecord } from './ports/players.js';

type Player = { networkId: number; uuid: string };

/** The statements of {@link PlayerStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PLAYER_STATEMENTS = {
  nameOf: prepare<Player, { name: string }>('players.nameOf', ({ db }, p) =>
    db.selectFrom('service_players').select('name').where('network_id', '=', p.networkId).where('uuid', '=', p.uuid),
  ),
  save: prepare<Player & { name: string }, never>('players.save', ({ db }, p) =>
    db
      .insertInto('service_players')
      .values({ network_id: p.networkId, uuid: p.uuid, name: p.name })
      .onConflict((conflict) =>
        conflict
          .columns(['network_id', 'uuid'])
          .doUpdateSet((update) => ({ name: update.ref('excluded.name') }))
          .where('service_players.name', '<>', (update) => update.ref('excluded.name')),
      ),
  ),
  // An address the login did not carry keeps the last one known.
  recordLogin: prepare<Player & { name: string; ip: string | null; server: string; at: number }, never>(
    'players.recordLogin',
    ({ db }, p) =>
      db
        .insertInto('service_players')
        .values({
          network_id: p.networkId,
          uuid: p.uuid,
          name: p.name,
          last_ip: p.ip,
          last_server: p.server,
          last_login_at: p.at,
        })
        .onConflict((conflict) =>
          conflict.columns(['network_id', 'uuid']).doUpdateSet((update) => ({
            name: update.ref('excluded.name'),
            last_ip: update.fn.coalesce('excluded.last_ip', 'service_players.last_ip'),
            last_server: update.ref('excluded.last_server'),
            last_login_at: update.ref('excluded.last_login_at'),
          })),
        ),
  ),
  // The folded name reads through the (network_id, folded name, last_login_at) index.
  byName: prepare<{ networkId: number; name: string }, { uuid: string; name: string }>(
    'players.byName',
    ({ db, choices }, p) =>
      db
        .selectFrom('service_players')
        .select(['uuid', 'name'])
        .where('network_id', '=', p.networkId)
        .where(choices.foldedName('name'), '=', choices.foldedValue(p.name))
        .orderBy('last_login_at', (order) => order.desc().nullsLast())
        .limit(1),
  ),
  byUuid: prepare<Player, PlayerRecord>('players.byUuid', ({ db }, p) =>
    db
      .selectFrom('service_players')
      .select(['uuid', 'name', 'last_ip as lastIp', 'last_server as lastServer', 'last_login_at as lastLoginAt'])
      .where('network_id', '=', p.networkId)
      .where('uuid', '=', p.uuid),
  ),
};

const q = PLAYER_STATEMENTS;

/** Players a network has seen, by lower-case UUID. */
export class PlayerStore {
  constructor(private readonly sql: SqlContext) {}

  /** The player of that name (any case); when several held it, the one who logged in last. */
  findByName(networkId: number, name: string): Promise<{ uuid: string; name: string } | undefined> {
    return q.byName.first(this.sql, { networkId, name });
  }

  find(networkId: number, uuid: string): Promise<PlayerRecord | undefined> {
    return q.byUuid.first(this.sql, { networkId, uuid: uuid.toLowerCase() });
  }

  /** Registers the player (or renames them) and records the address and server of this login. */
  async recordLogin(networkId: number, login: PlayerLogin): Promise<void> {
    const { uuid, name, ip, server, at } = login;
    await q.recordLogin.run(this.sql, { networkId, uuid: uuid.toLowerCase(), name, ip: ip ?? null, server, at });
  }

  async findName(networkId: number, uuid: string): Promise<string | undefined> {
    return (await q.nameOf.first(this.sql, { networkId, uuid: uuid.toLowerCase() }))?.name;
  }

  /** Registers the player or renames them; unchanged rows are not rewritten. */
  async save(networkId: number, uuid: string, name: string): Promise<void> {
    await q.save.run(this.sql, { networkId, uuid: uuid.toLowerCase(), name });
  }
}
