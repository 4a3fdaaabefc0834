import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type { ServerKeyStorePort } from './ports/server-keys.js';
import {
  hashApiKey,
  type ManagedServer,
  type ManagedServerRow,
  type RetiredKeyRow,
  toManagedServers,
  unmatchableKeyHash,
} from './server-rows.js';

type OfServer = { id: number };
type NewServer = { networkId: number; name: string; keyHash: Buffer; nowMs: number };

/** The statements of {@link ServerKeyStore}; the query-plan tests check each one's plan. */
export const SERVER_KEY_STATEMENTS = {
  serverByName: prepare<{ networkId: number; name: string }, { id: number; name: string }>(
    'serverKeys.serverByName',
    ({ db }, p) =>
      db
        .selectFrom('service_servers')
        .select(['id', 'name'])
        .where('network_id', '=', p.networkId)
        .where('name', '=', p.name)
        .where('removed_at', 'is', null),
  ),
  insertServer: prepare<NewServer, { id: number }>('serverKeys.insertServer', ({ db }, p) =>
    db
      .insertInto('service_servers')
      .values({ network_id: p.networkId, name: p.name, key_hash: p.keyHash, key_set_at: p.nowMs })
      .onConflict((conflict) => conflict.columns(['network_id', 'name']).doNothing())
      .returning('id'),
  ),
  reviveServer: prepare<NewServer, { id: number }>('serverKeys.reviveServer', ({ db }, p) =>
    db
      .updateTable('service_servers')
      .set({ key_hash: p.keyHash, key_set_at: p.nowMs, removed_at: null })
      .where('network_id', '=', p.networkId)
      .where('name', '=', p.name)
      .where('removed_at', 'is not', null)
      .returning('id'),
  ),
  // Locked, so two rotations of one server at the same moment retire one key each, in turn.
  currentKey: prepare<OfServer, { key_hash: Buffer }>('serverKeys.currentKey', ({ db, choices }, p) =>
    choices.lockedRows(
      db.selectFrom('service_servers').select('key_hash').where('id', '=', p.id).where('removed_at', 'is', null),
    ),
  ),
  retireKey: prepare<{ keyHash: Buffer; serverId: number; nowMs: number; validUntil: number }, never>(
    'serverKeys.retireKey',
    ({ db }, p) =>
      db
        .insertInto('service_retired_keys')
        .values({ key_hash: p.keyHash, server_id: p.serverId, retired_at: p.nowMs, valid_until: p.validUntil })
        .onConflict((conflict) =>
          conflict.column('key_hash').doUpdateSet((update) => ({
            server_id: update.ref('excluded.server_id'),
            retired_at: update.ref('excluded.retired_at'),
            valid_until: update.ref('excluded.valid_until'),
          })),
        ),
  ),
  setKey: prepare<OfServer & { keyHash: Buffer; nowMs: number }, never>('serverKeys.setKey', ({ db }, p) =>
    db.updateTable('service_servers').set({ key_hash: p.keyHash, key_set_at: p.nowMs }).where('id', '=', p.id),
  ),
  forgetOverRetiredKeys: prepare<{ serverId: number; nowMs: number }, never>(
    'serverKeys.forgetOverRetiredKeys',
    ({ db }, p) =>
      db.deleteFrom('service_retired_keys').where('server_id', '=', p.serverId).where('valid_until', '<=', p.nowMs),
  ),
  forgetRetiredKeys: prepare<{ serverId: number }, never>('serverKeys.forgetRetiredKeys', ({ db }, p) =>
    db.deleteFrom('service_retired_keys').where('server_id', '=', p.serverId),
  ),
  removeServer: prepare<OfServer & { nowMs: number; keyHash: Buffer }, never>('serverKeys.removeServer', ({ db }, p) =>
    db.updateTable('service_servers').set({ removed_at: p.nowMs, key_hash: p.keyHash }).where('id', '=', p.id),
  ),
  serversOf: prepare<{ networkId: number }, ManagedServerRow>('serverKeys.serversOf', ({ db }, p) =>
    db
      .selectFrom('service_servers')
      .select(['id', 'name', 'key_set_at'])
      .where('network_id', '=', p.networkId)
      .where('removed_at', 'is', null)
      .orderBy('name')
      .limit(1000),
  ),
  retiredKeysOf: prepare<{ networkId: number; nowMs: number }, RetiredKeyRow>('serverKeys.retiredKeysOf', ({ db }, p) =>
    db
      .selectFrom('service_servers as s')
      .innerJoin('service_retired_keys as r', (join) =>
        join.onRef('r.server_id', '=', 's.id').on('r.valid_until', '>', p.nowMs),
      )
      .select(['r.server_id', 'r.valid_until'])
      .where('s.network_id', '=', p.networkId)
      .where('s.removed_at', 'is', null)
      .orderBy('r.valid_until'),
  ),
};

const q = SERVER_KEY_STATEMENTS;

/** Servers and their keys as operators manage them; keys are stored as SHA-256 hashes only. */
export class ServerKeyStore implements ServerKeyStorePort {
  constructor(private readonly sql: SqlContext) {}

  findServer(networkId: number, name: string): Promise<{ id: number; name: string } | undefined> {
    return q.serverByName.first(this.sql, { networkId, name });
  }

  async addServer(networkId: number, name: string, apiKey: string, nowMs: number): Promise<number | undefined> {
    const values = { networkId, name, keyHash: hashApiKey(apiKey), nowMs };
    const inserted = await q.insertServer.first(this.sql, values);
    if (inserted) return Number(inserted.id);
    return (await q.reviveServer.first(this.sql, values))?.id;
  }

  rotateKey(serverId: number, apiKey: string, nowMs: number, oldKeyValidUntilMs: number): Promise<void> {
    return inTransaction(this.sql, async (sql) => {
      const current = await q.currentKey.first(sql, { id: serverId });
      if (!current) return;
      await q.forgetOverRetiredKeys.run(sql, { serverId, nowMs });
      if (oldKeyValidUntilMs > nowMs) {
        await q.retireKey.run(sql, { keyHash: current.key_hash, serverId, nowMs, validUntil: oldKeyValidUntilMs });
      }
      await q.setKey.run(sql, { id: serverId, keyHash: hashApiKey(apiKey), nowMs });
    });
  }

  removeServer(serverId: number, nowMs: number): Promise<void> {
    return inTransaction(this.sql, async (sql) => {
      await q.forgetRetiredKeys.run(sql, { serverId });
      await q.removeServer.run(sql, { id: serverId, nowMs, keyHash: unmatchableKeyHash() });
    });
  }

  async list(networkId: number, nowMs: number): Promise<ManagedServer[]> {
    const servers = await q.serversOf.all(this.sql, { networkId });
    return toManagedServers(servers, await q.retiredKeysOf.all(this.sql, { networkId, nowMs }));
  }
}
