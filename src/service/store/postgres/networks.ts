import { type Clock, systemClock } from '../../../ports/clock.js';
import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { type Caller, callerOfKey, hashApiKey, type ServerRow } from '../server-rows.js';

/** The statements of {@link PgNetworkStore}. */
export const PG_NETWORK_SQL = pgStatements('networks', {
  serverByKeyHash:
    'SELECT id, network_id, name, key_hash FROM service_servers WHERE key_hash = $1 AND removed_at IS NULL',
  // Only asked when no server has the key as its current one: a key in the grace period of a rotation.
  retiredKey: `SELECT s.id, s.network_id, s.name, r.key_hash FROM service_retired_keys r
    JOIN service_servers s ON s.id = r.server_id
    WHERE r.key_hash = $1 AND r.valid_until > $2 AND s.removed_at IS NULL`,
  networkByName: 'SELECT id FROM service_networks WHERE name = $1',
  // A network made by another instance at the same moment is found, not made twice.
  insertNetwork: `INSERT INTO service_networks (name) VALUES ($1)
    ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`,
  serverByName:
    'SELECT id, network_id, name, key_hash, removed_at FROM service_servers WHERE network_id = $1 AND name = $2',
  insertServer: `INSERT INTO service_servers (network_id, name, key_hash, key_set_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (network_id, name) DO UPDATE
      SET key_hash = excluded.key_hash, key_set_at = excluded.key_set_at, removed_at = NULL
    RETURNING id`,
  // A seed names the servers it wants: one removed since comes back with the seed's key.
  updateServerKey: 'UPDATE service_servers SET key_hash = $2, key_set_at = $3, removed_at = NULL WHERE id = $1',
  serverById: 'SELECT name FROM service_servers WHERE id = $1',
  networkById: 'SELECT name FROM service_networks WHERE id = $1',
  allNetworks: 'SELECT id, name FROM service_networks ORDER BY name LIMIT 1000',
  serversOf:
    'SELECT id, name FROM service_servers WHERE network_id = $1 AND removed_at IS NULL ORDER BY name LIMIT 1000',
});

/**
 * Networks (tenants) and their servers on PostgreSQL; API keys are only ever stored as SHA-256
 * hashes. A key retired by a rotation is accepted until the end of its grace period, by `clock`.
 */
export class PgNetworkStore {
  constructor(
    private readonly db: PgDb,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The server whose key this is (its current key, or one in a rotation's grace period), or undefined. */
  async authenticate(apiKey: string): Promise<Caller | undefined> {
    const hash = hashApiKey(apiKey);
    const current = await this.db.row<ServerRow>(PG_NETWORK_SQL.serverByKeyHash, [hash]);
    if (current) return callerOfKey(current, hash);
    return callerOfKey(await this.db.row<ServerRow>(PG_NETWORK_SQL.retiredKey, [hash, this.clock.now()]), hash);
  }

  async findNetwork(name: string): Promise<number | undefined> {
    return (await this.db.row<{ id: number }>(PG_NETWORK_SQL.networkByName, [name]))?.id;
  }

  async ensureNetwork(name: string): Promise<number> {
    const existing = await this.findNetwork(name);
    if (existing !== undefined) return existing;
    return (await this.db.row<{ id: number }>(PG_NETWORK_SQL.insertNetwork, [name]))!.id;
  }

  /** Creates the server or gives it this key (a removed server comes back); returns its id. */
  async ensureServer(networkId: number, name: string, apiKey: string): Promise<number> {
    const keyHash = hashApiKey(apiKey);
    const nowMs = this.clock.now();
    const existing = await this.db.row<ServerRow & { removed_at: number | null }>(PG_NETWORK_SQL.serverByName, [
      networkId,
      name,
    ]);
    if (!existing) {
      return (await this.db.row<{ id: number }>(PG_NETWORK_SQL.insertServer, [networkId, name, keyHash, nowMs]))!.id;
    }
    if (!existing.key_hash.equals(keyHash) || existing.removed_at !== null) {
      await this.db.run(PG_NETWORK_SQL.updateServerKey, [existing.id, keyHash, nowMs]);
    }
    return existing.id;
  }

  async networkName(networkId: number): Promise<string | undefined> {
    return (await this.db.row<{ name: string }>(PG_NETWORK_SQL.networkById, [networkId]))?.name;
  }

  /** Every network by name (at most 1000), for a superuser's network switch. */
  listNetworks(): Promise<{ id: number; name: string }[]> {
    return this.db.rows(PG_NETWORK_SQL.allNetworks);
  }

  /** The game servers of a network by name (at most 1000), removed ones left out. */
  serversOf(networkId: number): Promise<{ id: number; name: string }[]> {
    return this.db.rows(PG_NETWORK_SQL.serversOf, [networkId]);
  }

  async serverName(serverId: number): Promise<string> {
    return (await this.db.row<{ name: string }>(PG_NETWORK_SQL.serverById, [serverId]))?.name ?? `#${serverId}`;
  }
}
