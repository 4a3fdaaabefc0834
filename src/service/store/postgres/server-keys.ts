import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import {
  hashApiKey,
  type ManagedServer,
  type ManagedServerRow,
  type RetiredKeyRow,
  toManagedServers,
  unmatchableKeyHash,
} from '../server-rows.js';

/** The statements of {@link PgServerKeyStore}. */
export const PG_SERVER_KEY_SQL = pgStatements('serverKeys', {
  serverByName: 'SELECT id, name FROM service_servers WHERE network_id = $1 AND name = $2 AND removed_at IS NULL',
  insertServer: `INSERT INTO service_servers (network_id, name, key_hash, key_set_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (network_id, name) DO NOTHING RETURNING id`,
  reviveServer: `UPDATE service_servers SET key_hash = $3, key_set_at = $4, removed_at = NULL
    WHERE network_id = $1 AND name = $2 AND removed_at IS NOT NULL RETURNING id`,
  // Locked, so two rotations of one server at the same moment retire one key each, in turn.
  currentKey: 'SELECT key_hash FROM service_servers WHERE id = $1 AND removed_at IS NULL FOR UPDATE',
  retireKey: `INSERT INTO service_retired_keys (key_hash, server_id, retired_at, valid_until) VALUES ($1, $2, $3, $4)
    ON CONFLICT (key_hash) DO UPDATE SET server_id = excluded.server_id, retired_at = excluded.retired_at,
      valid_until = excluded.valid_until`,
  setKey: 'UPDATE service_servers SET key_hash = $2, key_set_at = $3 WHERE id = $1',
  forgetOverRetiredKeys: 'DELETE FROM service_retired_keys WHERE server_id = $1 AND valid_until <= $2',
  forgetRetiredKeys: 'DELETE FROM service_retired_keys WHERE server_id = $1',
  removeServer: 'UPDATE service_servers SET removed_at = $2, key_hash = $3 WHERE id = $1',
  serversOf: `SELECT id, name, key_set_at FROM service_servers WHERE network_id = $1 AND removed_at IS NULL
    ORDER BY name LIMIT 1000`,
  retiredKeysOf: `SELECT r.server_id, r.valid_until FROM service_servers s
    JOIN service_retired_keys r ON r.server_id = s.id AND r.valid_until > $2
    WHERE s.network_id = $1 AND s.removed_at IS NULL ORDER BY r.valid_until`,
});

/** Servers and their keys as operators manage them, on PostgreSQL; keys are stored as SHA-256 hashes only. */
export class PgServerKeyStore {
  constructor(private readonly db: PgDb) {}

  findServer(networkId: number, name: string): Promise<{ id: number; name: string } | undefined> {
    return this.db.row(PG_SERVER_KEY_SQL.serverByName, [networkId, name]);
  }

  async addServer(networkId: number, name: string, apiKey: string, nowMs: number): Promise<number | undefined> {
    const values = [networkId, name, hashApiKey(apiKey), nowMs];
    const inserted = await this.db.row<{ id: number }>(PG_SERVER_KEY_SQL.insertServer, values);
    if (inserted) return inserted.id;
    return (await this.db.row<{ id: number }>(PG_SERVER_KEY_SQL.reviveServer, values))?.id;
  }

  rotateKey(serverId: number, apiKey: string, nowMs: number, oldKeyValidUntilMs: number): Promise<void> {
    return this.db.transaction(async (tx) => {
      const current = await tx.row<{ key_hash: Buffer }>(PG_SERVER_KEY_SQL.currentKey, [serverId]);
      if (!current) return;
      await tx.run(PG_SERVER_KEY_SQL.forgetOverRetiredKeys, [serverId, nowMs]);
      if (oldKeyValidUntilMs > nowMs) {
        await tx.run(PG_SERVER_KEY_SQL.retireKey, [current.key_hash, serverId, nowMs, oldKeyValidUntilMs]);
      }
      await tx.run(PG_SERVER_KEY_SQL.setKey, [serverId, hashApiKey(apiKey), nowMs]);
    });
  }

  removeServer(serverId: number, nowMs: number): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.run(PG_SERVER_KEY_SQL.forgetRetiredKeys, [serverId]);
      await tx.run(PG_SERVER_KEY_SQL.removeServer, [serverId, nowMs, unmatchableKeyHash()]);
    });
  }

  async list(networkId: number, nowMs: number): Promise<ManagedServer[]> {
    const servers = await this.db.rows<ManagedServerRow>(PG_SERVER_KEY_SQL.serversOf, [networkId]);
    const retired = await this.db.rows<RetiredKeyRow>(PG_SERVER_KEY_SQL.retiredKeysOf, [networkId, nowMs]);
    return toManagedServers(servers, retired);
  }
}
