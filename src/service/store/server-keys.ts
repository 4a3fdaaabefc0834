import type { Db } from '../../db/open-db.js';
import {
  hashApiKey,
  type ManagedServer,
  type ManagedServerRow,
  type RetiredKeyRow,
  toManagedServers,
  unmatchableKeyHash,
} from './server-rows.js';

/** The statements of {@link ServerKeyStore}; test/service/query-plans.test.ts checks each one's plan. */
export const SERVER_KEY_SQL = {
  serverByName: 'SELECT id, name FROM service_servers WHERE network_id = ? AND name = ? AND removed_at IS NULL',
  insertServer: `INSERT INTO service_servers (network_id, name, key_hash, key_set_at)
       VALUES (@networkId, @name, @keyHash, @nowMs) ON CONFLICT (network_id, name) DO NOTHING`,
  reviveServer: `UPDATE service_servers SET key_hash = @keyHash, key_set_at = @nowMs, removed_at = NULL
       WHERE network_id = @networkId AND name = @name AND removed_at IS NOT NULL RETURNING id`,
  currentKey: 'SELECT key_hash FROM service_servers WHERE id = ? AND removed_at IS NULL',
  retireKey: `INSERT INTO service_retired_keys (key_hash, server_id, retired_at, valid_until)
       VALUES (@keyHash, @serverId, @nowMs, @validUntil)
       ON CONFLICT (key_hash) DO UPDATE SET server_id = excluded.server_id, retired_at = excluded.retired_at,
         valid_until = excluded.valid_until`,
  setKey: 'UPDATE service_servers SET key_hash = @keyHash, key_set_at = @nowMs WHERE id = @id',
  forgetOverRetiredKeys: 'DELETE FROM service_retired_keys WHERE server_id = ? AND valid_until <= ?',
  forgetRetiredKeys: 'DELETE FROM service_retired_keys WHERE server_id = ?',
  removeServer: 'UPDATE service_servers SET removed_at = @nowMs, key_hash = @keyHash WHERE id = @id',
  serversOf: `SELECT id, name, key_set_at FROM service_servers WHERE network_id = ? AND removed_at IS NULL
       ORDER BY name LIMIT 1000`,
  retiredKeysOf: `SELECT r.server_id, r.valid_until FROM service_servers s
       JOIN service_retired_keys r ON r.server_id = s.id AND r.valid_until > ?
       WHERE s.network_id = ? AND s.removed_at IS NULL ORDER BY r.valid_until`,
} as const;

/** Servers and their keys as operators manage them; keys are stored as SHA-256 hashes only. */
export class ServerKeyStore {
  private readonly serverByName;
  private readonly insertServer;
  private readonly reviveServer;
  private readonly currentKey;
  private readonly retireKey;
  private readonly setKey;
  private readonly forgetOverRetiredKeys;
  private readonly forgetRetiredKeys;
  private readonly removeServerStatement;
  private readonly serversOf;
  private readonly retiredKeysOf;
  private readonly rotate;
  private readonly remove;

  constructor(db: Db) {
    this.serverByName = db.prepare<[number, string], { id: number; name: string }>(SERVER_KEY_SQL.serverByName);
    this.insertServer = db.prepare<{ networkId: number; name: string; keyHash: Buffer; nowMs: number }>(
      SERVER_KEY_SQL.insertServer,
    );
    this.reviveServer = db.prepare<{ networkId: number; name: string; keyHash: Buffer; nowMs: number }, { id: number }>(
      SERVER_KEY_SQL.reviveServer,
    );
    this.currentKey = db.prepare<[number], { key_hash: Buffer }>(SERVER_KEY_SQL.currentKey);
    this.retireKey = db.prepare<{ keyHash: Buffer; serverId: number; nowMs: number; validUntil: number }>(
      SERVER_KEY_SQL.retireKey,
    );
    this.setKey = db.prepare<{ id: number; keyHash: Buffer; nowMs: number }>(SERVER_KEY_SQL.setKey);
    this.forgetOverRetiredKeys = db.prepare<[number, number]>(SERVER_KEY_SQL.forgetOverRetiredKeys);
    this.forgetRetiredKeys = db.prepare<[number]>(SERVER_KEY_SQL.forgetRetiredKeys);
    this.removeServerStatement = db.prepare<{ id: number; nowMs: number; keyHash: Buffer }>(
      SERVER_KEY_SQL.removeServer,
    );
    this.serversOf = db.prepare<[number], ManagedServerRow>(SERVER_KEY_SQL.serversOf);
    this.retiredKeysOf = db.prepare<[number, number], RetiredKeyRow>(SERVER_KEY_SQL.retiredKeysOf);
    this.rotate = db.transaction((serverId: number, keyHash: Buffer, nowMs: number, oldKeyValidUntilMs: number) => {
      const current = this.currentKey.get(serverId);
      if (!current) return;
      this.forgetOverRetiredKeys.run(serverId, nowMs);
      if (oldKeyValidUntilMs > nowMs) {
        this.retireKey.run({ keyHash: current.key_hash, serverId, nowMs, validUntil: oldKeyValidUntilMs });
      }
      this.setKey.run({ id: serverId, keyHash, nowMs });
    });
    this.remove = db.transaction((serverId: number, nowMs: number) => {
      this.forgetRetiredKeys.run(serverId);
      this.removeServerStatement.run({ id: serverId, nowMs, keyHash: unmatchableKeyHash() });
    });
  }

  findServer(networkId: number, name: string): { id: number; name: string } | undefined {
    return this.serverByName.get(networkId, name);
  }

  addServer(networkId: number, name: string, apiKey: string, nowMs: number): number | undefined {
    const keyHash = hashApiKey(apiKey);
    const inserted = this.insertServer.run({ networkId, name, keyHash, nowMs });
    if (inserted.changes === 1) return Number(inserted.lastInsertRowid);
    return this.reviveServer.get({ networkId, name, keyHash, nowMs })?.id;
  }

  rotateKey(serverId: number, apiKey: string, nowMs: number, oldKeyValidUntilMs: number): void {
    this.rotate(serverId, hashApiKey(apiKey), nowMs, oldKeyValidUntilMs);
  }

  removeServer(serverId: number, nowMs: number): void {
    this.remove(serverId, nowMs);
  }

  list(networkId: number, nowMs: number): ManagedServer[] {
    return toManagedServers(this.serversOf.all(networkId), this.retiredKeysOf.all(nowMs, networkId));
  }
}
