import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The game server a request's API key belongs to. */
export interface Caller {
  networkId: number;
  serverId: number;
  serverName: string;
}

/** A row of `service_servers` as both databases' server queries select it. */
export interface ServerRow {
  id: number;
  network_id: number;
  name: string;
  key_hash: Buffer;
}

export function hashApiKey(apiKey: string): Buffer {
  return createHash('sha256').update(apiKey, 'utf8').digest();
}

/** The server the key belongs to, when the row found by the key's hash holds that hash (compared in constant time). */
export function callerOfKey(row: ServerRow | undefined, keyHash: Buffer): Caller | undefined {
  if (!row || !timingSafeEqual(row.key_hash, keyHash)) return undefined;
  return { networkId: row.network_id, serverId: row.id, serverName: row.name };
}

/** A server as the operator manages it: never its key, only when it was set and the old keys still accepted. */
export interface ManagedServer {
  id: number;
  name: string;
  /** When its current key was set; null for a key set before Bailiff recorded it. */
  keySetAt: number | null;
  /** Until when each key retired by a rotation is still accepted, earliest first. */
  retiredKeysValidUntil: number[];
}

/** A server row as both databases' server lists select it. */
export interface ManagedServerRow {
  id: number;
  name: string;
  key_set_at: number | null;
}

/** A retired key still in its grace period, as both databases' server lists select it. */
export interface RetiredKeyRow {
  server_id: number;
  valid_until: number;
}

/** The servers with the retired keys of each (rows ordered by `valid_until`). */
export function toManagedServers(servers: ManagedServerRow[], retired: RetiredKeyRow[]): ManagedServer[] {
  const byServer = new Map<number, number[]>();
  for (const key of retired) byServer.set(key.server_id, [...(byServer.get(key.server_id) ?? []), key.valid_until]);
  return servers.map((row) => ({
    id: row.id,
    name: row.name,
    keySetAt: row.key_set_at,
    retiredKeysValidUntil: byServer.get(row.id) ?? [],
  }));
}

/**
 * What a removed server's key column holds: random bytes the size of a hash, so no key matches it
 * (the column stays unique and not null, and the row stays for the history that names it).
 */
export function unmatchableKeyHash(): Buffer {
  return randomBytes(32);
}
