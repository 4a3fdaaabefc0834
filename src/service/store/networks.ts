import { type Clock, systemClock } from '../../ports/clock.js';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { NetworkStorePort } from './ports/networks.js';
import { type Caller, callerOfKey, hashApiKey, type ServerRow } from './server-rows.js';

type Named = { name: string };
type KeyOfServer = { id: number; keyHash: Buffer; nowMs: number };

/** The statements of {@link NetworkStore}; the query-plan tests check each one's plan. */
export const NETWORK_STATEMENTS = {
  serverByKeyHash: prepare<{ keyHash: Buffer }, ServerRow>('networks.serverByKeyHash', ({ db }, p) =>
    db
      .selectFrom('service_servers')
      .select(['id', 'network_id', 'name', 'key_hash'])
      .where('key_hash', '=', p.keyHash)
      .where('removed_at', 'is', null),
  ),
  // Only asked when no server has the key as its current one: a key in the grace period of a rotation.
  retiredKey: prepare<{ keyHash: Buffer; nowMs: number }, ServerRow>('networks.retiredKey', ({ db }, p) =>
    db
      .selectFrom('service_retired_keys as r')
      .innerJoin('service_servers as s', 's.id', 'r.server_id')
      .select(['s.id', 's.network_id', 's.name', 'r.key_hash'])
      .where('r.key_hash', '=', p.keyHash)
      .where('r.valid_until', '>', p.nowMs)
      .where('s.removed_at', 'is', null),
  ),
  networkByName: prepare<Named, { id: number }>('networks.networkByName', ({ db }, p) =>
    db.selectFrom('service_networks').select('id').where('name', '=', p.name),
  ),
  // A network made by another instance at the same moment is found, not made twice.
  insertNetwork: prepare<Named, { id: number }>('networks.insertNetwork', ({ db }, p) =>
    db
      .insertInto('service_networks')
      .values({ name: p.name })
      .onConflict((conflict) =>
        conflict.column('name').doUpdateSet((update) => ({ name: update.ref('excluded.name') })),
      )
      .returning('id'),
  ),
  serverByName: prepare<{ networkId: number } & Named, ServerRow & { removed_at: number | null }>(
    'networks.serverByName',
    ({ db }, p) =>
      db
        .selectFrom('service_servers')
        .select(['id', 'network_id', 'name', 'key_hash', 'removed_at'])
        .where('network_id', '=', p.networkId)
        .where('name', '=', p.name),
  ),
  insertServer: prepare<{ networkId: number; keyHash: Buffer; nowMs: number } & Named, { id: number }>(
    'networks.insertServer',
    ({ db }, p) =>
      db
        .insertInto('service_servers')
        .values({ network_id: p.networkId, name: p.name, key_hash: p.keyHash, key_set_at: p.nowMs })
        .onConflict((conflict) =>
          conflict.columns(['network_id', 'name']).doUpdateSet((update) => ({
            key_hash: update.ref('excluded.key_hash'),
            key_set_at: update.ref('excluded.key_set_at'),
            removed_at: null,
          })),
        )
        .returning('id'),
  ),
  // A seed names the servers it wants: one removed since comes back with the seed's key.
  updateServerKey: prepare<KeyOfServer, never>('networks.updateServerKey', ({ db }, p) =>
    db
      .updateTable('service_servers')
      .set({ key_hash: p.keyHash, key_set_at: p.nowMs, removed_at: null })
      .where('id', '=', p.id),
  ),
  serverById: prepare<{ id: number }, Named>('networks.serverById', ({ db }, p) =>
    db.selectFrom('service_servers').select('name').where('id', '=', p.id),
  ),
  networkById: prepare<{ id: number }, Named>('networks.networkById', ({ db }, p) =>
    db.selectFrom('service_networks').select('name').where('id', '=', p.id),
  ),
  allNetworks: prepare<Record<string, never>, { id: number } & Named>('networks.allNetworks', ({ db }) =>
    db.selectFrom('service_networks').select(['id', 'name']).orderBy('name').limit(1000),
  ),
  serversOf: prepare<{ networkId: number }, { id: number } & Named>('networks.serversOf', ({ db }, p) =>
    db
      .selectFrom('service_servers')
      .select(['id', 'name'])
      .where('network_id', '=', p.networkId)
      .where('removed_at', 'is', null)
      .orderBy('name')
      .limit(1000),
  ),
};

const q = NETWORK_STATEMENTS;

/**
 * Networks (tenants) and their servers; API keys are only ever stored as SHA-256 hashes. A key
 * retired by a rotation is accepted until the end of its grace period, by `clock`.
 */
export class NetworkStore implements NetworkStorePort {
  constructor(
    private readonly sql: SqlContext,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The server whose key this is (its current key, or one in a rotation's grace period), or undefined. */
  async authenticate(apiKey: string): Promise<Caller | undefined> {
    const keyHash = hashApiKey(apiKey);
    const current = await q.serverByKeyHash.first(this.sql, { keyHash });
    if (current) return callerOfKey(current, keyHash);
    return callerOfKey(await q.retiredKey.first(this.sql, { keyHash, nowMs: this.clock.now() }), keyHash);
  }

  async findNetwork(name: string): Promise<number | undefined> {
    return (await q.networkByName.first(this.sql, { name }))?.id;
  }

  async ensureNetwork(name: string): Promise<number> {
    const existing = await this.findNetwork(name);
    if (existing !== undefined) return existing;
    return Number((await q.insertNetwork.first(this.sql, { name }))!.id);
  }

  /** Creates the server or gives it this key (a removed server comes back); returns its id. */
  async ensureServer(networkId: number, name: string, apiKey: string): Promise<number> {
    const keyHash = hashApiKey(apiKey);
    const nowMs = this.clock.now();
    const existing = await q.serverByName.first(this.sql, { networkId, name });
    if (!existing) return Number((await q.insertServer.first(this.sql, { networkId, name, keyHash, nowMs }))!.id);
    if (!Buffer.from(existing.key_hash).equals(keyHash) || existing.removed_at !== null) {
      await q.updateServerKey.run(this.sql, { id: existing.id, keyHash, nowMs });
    }
    return existing.id;
  }

  async networkName(networkId: number): Promise<string | undefined> {
    return (await q.networkById.first(this.sql, { id: networkId }))?.name;
  }

  /** Every network by name (at most 1000), for a superuser's network switch. */
  listNetworks(): Promise<{ id: number; name: string }[]> {
    return q.allNetworks.all(this.sql, {});
  }

  /** The game servers of a network by name (at most 1000), removed ones left out. */
  serversOf(networkId: number): Promise<{ id: number; name: string }[]> {
    return q.serversOf.all(this.sql, { networkId });
  }

  async serverName(serverId: number): Promise<string> {
    return (await q.serverById.first(this.sql, { id: serverId }))?.name ?? `#${serverId}`;
  }
}
