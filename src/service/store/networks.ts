import type { Db } from '../../db/open-db.js';
import { type Clock, systemClock } from '../../ports/clock.js';
import { type Caller, callerOfKey, hashApiKey, type ServerRow } from './server-rows.js';

export { hashApiKey } from './server-rows.js';

/** The statements of {@link NetworkStore}; test/service/query-plans.test.ts checks each one's plan. */
export const NETWORK_SQL = {
  serverByKeyHash:
    'SELECT id, network_id, name, key_hash FROM service_servers WHERE key_hash = ? AND removed_at IS NULL',
  // Only asked when no server has the key as its current one: a key in the grace period of a rotation.
  retiredKey: `SELECT s.id, s.network_id, s.name, r.key_hash FROM service_retired_keys r
       JOIN service_servers s ON s.id = r.server_id
       WHERE r.key_hash = ? AND r.valid_until > ? AND s.removed_at IS NULL`,
  networkByName: 'SELECT id FROM service_networks WHERE name = ?',
  insertNetwork: 'INSERT INTO service_networks (name) VALUES (?)',
  serverByName:
    'SELECT id, network_id, name, key_hash, removed_at FROM service_servers WHERE network_id = ? AND name = ?',
  insertServer: `INSERT INTO service_servers (network_id, name, key_hash, key_set_at)
       VALUES (@networkId, @name, @keyHash, @nowMs)`,
  // A seed names the servers it wants: one removed since comes back with the seed's key.
  updateServerKey:
    'UPDATE service_servers SET key_hash = @keyHash, key_set_at = @nowMs, removed_at = NULL WHERE id = @id',
  serverById: 'SELECT name FROM service_servers WHERE id = ?',
  networkById: 'SELECT name FROM service_networks WHERE id = ?',
  serversOf:
    'SELECT id, name FROM service_servers WHERE network_id = ? AND removed_at IS NULL ORDER BY name LIMIT 1000',
  allNetworks: 'SELECT id, name FROM service_networks ORDER BY name LIMIT 1000',
} as const;

/** A server row as the seed's upsert reads it: removed or not. */
type SeededServerRow = ServerRow & { removed_at: number | null };

/**
 * Networks (tenants) and their servers; API keys are only ever stored as SHA-256 hashes. A key
 * retired by a rotation is accepted until the end of its grace period, by `clock`.
 */
export class NetworkStore {
  private readonly byHash;
  private readonly retiredKey;
  private readonly networkByName;
  private readonly insertNetwork;
  private readonly serverByName;
  private readonly insertServer;
  private readonly updateServerKey;
  private readonly serverById;
  private readonly networkById;
  private readonly serversOfStatement;
  private readonly allNetworks;

  constructor(
    db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.byHash = db.prepare<[Buffer], ServerRow>(NETWORK_SQL.serverByKeyHash);
    this.retiredKey = db.prepare<[Buffer, number], ServerRow>(NETWORK_SQL.retiredKey);
    this.networkByName = db.prepare<[string], { id: number }>(NETWORK_SQL.networkByName);
    this.insertNetwork = db.prepare<[string]>(NETWORK_SQL.insertNetwork);
    this.serverByName = db.prepare<[number, string], SeededServerRow>(NETWORK_SQL.serverByName);
    this.insertServer = db.prepare<{ networkId: number; name: string; keyHash: Buffer; nowMs: number }>(
      NETWORK_SQL.insertServer,
    );
    this.updateServerKey = db.prepare<{ id: number; keyHash: Buffer; nowMs: number }>(NETWORK_SQL.updateServerKey);
    this.serverById = db.prepare<[number], { name: string }>(NETWORK_SQL.serverById);
    this.networkById = db.prepare<[number], { name: string }>(NETWORK_SQL.networkById);
    this.serversOfStatement = db.prepare<[number], { id: number; name: string }>(NETWORK_SQL.serversOf);
    this.allNetworks = db.prepare<[], { id: number; name: string }>(NETWORK_SQL.allNetworks);
  }

  networkName(networkId: number): string | undefined {
    return this.networkById.get(networkId)?.name;
  }

  /** Every network by name (at most 1000), for a superuser's network switch. */
  listNetworks(): { id: number; name: string }[] {
    return this.allNetworks.all();
  }

  /** The game servers of a network by name (at most 1000), removed ones left out. */
  serversOf(networkId: number): { id: number; name: string }[] {
    return this.serversOfStatement.all(networkId);
  }

  /** The server whose key this is (its current key, or one in a rotation's grace period), or undefined. */
  authenticate(apiKey: string): Caller | undefined {
    const hash = hashApiKey(apiKey);
    return callerOfKey(this.byHash.get(hash) ?? this.retiredKey.get(hash, this.clock.now()), hash);
  }

  findNetwork(name: string): number | undefined {
    return this.networkByName.get(name)?.id;
  }

  ensureNetwork(name: string): number {
    const existing = this.findNetwork(name);
    if (existing !== undefined) return existing;
    return Number(this.insertNetwork.run(name).lastInsertRowid);
  }

  /** Creates the server or gives it this key (a removed server comes back); returns its id. */
  ensureServer(networkId: number, name: string, apiKey: string): number {
    const keyHash = hashApiKey(apiKey);
    const nowMs = this.clock.now();
    const existing = this.serverByName.get(networkId, name);
    if (!existing) return Number(this.insertServer.run({ networkId, name, keyHash, nowMs }).lastInsertRowid);
    if (!existing.key_hash.equals(keyHash) || existing.removed_at !== null) {
      this.updateServerKey.run({ id: existing.id, keyHash, nowMs });
    }
    return existing.id;
  }

  serverName(serverId: number): string {
    return this.serverById.get(serverId)?.name ?? `#${serverId}`;
  }
}
