import type { Db } from '../../db/open-db.js';
import { type Caller, callerOfKey, hashApiKey, type ServerRow } from './server-rows.js';

export { hashApiKey } from './server-rows.js';

/** The statements of {@link NetworkStore}; test/service/query-plans.test.ts checks each one's plan. */
export const NETWORK_SQL = {
  serverByKeyHash: 'SELECT id, network_id, name, key_hash FROM service_servers WHERE key_hash = ?',
  networkByName: 'SELECT id FROM service_networks WHERE name = ?',
  insertNetwork: 'INSERT INTO service_networks (name) VALUES (?)',
  serverByName: 'SELECT id, network_id, name, key_hash FROM service_servers WHERE network_id = ? AND name = ?',
  insertServer: 'INSERT INTO service_servers (network_id, name, key_hash) VALUES (@networkId, @name, @keyHash)',
  updateServerKey: 'UPDATE service_servers SET key_hash = @keyHash WHERE id = @id',
  serverById: 'SELECT name FROM service_servers WHERE id = ?',
  networkById: 'SELECT name FROM service_networks WHERE id = ?',
  serversOf: 'SELECT id, name FROM service_servers WHERE network_id = ? ORDER BY name LIMIT 1000',
  allNetworks: 'SELECT id, name FROM service_networks ORDER BY name LIMIT 1000',
} as const;

/** Networks (tenants) and their servers; API keys are only ever stored as SHA-256 hashes. */
export class NetworkStore {
  private readonly byHash;
  private readonly networkByName;
  private readonly insertNetwork;
  private readonly serverByName;
  private readonly insertServer;
  private readonly updateServerKey;
  private readonly serverById;
  private readonly networkById;
  private readonly serversOfStatement;
  private readonly allNetworks;

  constructor(db: Db) {
    this.byHash = db.prepare<[Buffer], ServerRow>(NETWORK_SQL.serverByKeyHash);
    this.networkByName = db.prepare<[string], { id: number }>(NETWORK_SQL.networkByName);
    this.insertNetwork = db.prepare<[string]>(NETWORK_SQL.insertNetwork);
    this.serverByName = db.prepare<[number, string], ServerRow>(NETWORK_SQL.serverByName);
    this.insertServer = db.prepare<{ networkId: number; name: string; keyHash: Buffer }>(NETWORK_SQL.insertServer);
    this.updateServerKey = db.prepare<{ id: number; keyHash: Buffer }>(NETWORK_SQL.updateServerKey);
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

  /** The game servers of a network by name (at most 1000). */
  serversOf(networkId: number): { id: number; name: string }[] {
    return this.serversOfStatement.all(networkId);
  }

  /** The server whose key this is, or undefined. The hash comparison is constant-time. */
  authenticate(apiKey: string): Caller | undefined {
    const hash = hashApiKey(apiKey);
    return callerOfKey(this.byHash.get(hash), hash);
  }

  findNetwork(name: string): number | undefined {
    return this.networkByName.get(name)?.id;
  }

  ensureNetwork(name: string): number {
    const existing = this.findNetwork(name);
    if (existing !== undefined) return existing;
    return Number(this.insertNetwork.run(name).lastInsertRowid);
  }

  /** Creates the server or gives it this key; returns its id. */
  ensureServer(networkId: number, name: string, apiKey: string): number {
    const keyHash = hashApiKey(apiKey);
    const existing = this.serverByName.get(networkId, name);
    if (!existing) return Number(this.insertServer.run({ networkId, name, keyHash }).lastInsertRowid);
    if (!existing.key_hash.equals(keyHash)) this.updateServerKey.run({ id: existing.id, keyHash });
    return existing.id;
  }

  serverName(serverId: number): string {
    return this.serverById.get(serverId)?.name ?? `#${serverId}`;
  }
}
