import type { Caller } from '../server-rows.js';

export type { Caller } from '../server-rows.js';
export { hashApiKey } from '../server-rows.js';

/** Networks (tenants) and their servers; API keys are only ever stored as SHA-256 hashes. */
export interface NetworkStorePort {
  /** The server whose key this is, or undefined. The hash comparison is constant-time. */
  authenticate(apiKey: string): Promise<Caller | undefined>;
  findNetwork(name: string): Promise<number | undefined>;
  /** The game servers of a network by name (at most 1000). */
  serversOf(networkId: number): Promise<{ id: number; name: string }[]>;
  ensureNetwork(name: string): Promise<number>;
  /** Creates the server or gives it this key; returns its id. */
  ensureServer(networkId: number, name: string, apiKey: string): Promise<number>;
  /** The server's name, or `#<id>` when there is none. */
  serverName(serverId: number): Promise<string>;
  networkName(networkId: number): Promise<string | undefined>;
  /** Every network by name (at most 1000), for a superuser's network switch. */
  listNetworks(): Promise<{ id: number; name: string }[]>;
}
