import { createHash, timingSafeEqual } from 'node:crypto';

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
