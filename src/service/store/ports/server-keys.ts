export type { ManagedServer } from '../server-rows.js';

import type { ManagedServer } from '../server-rows.js';

/**
 * Servers and their keys as operators manage them (CLI, admin API, panel): only hashes of keys are
 * stored. A removed server keeps its row for the history that names it, but no key of it works.
 */
export interface ServerKeyStorePort {
  /** The network's server of this name, unless it was removed. */
  findServer(networkId: number, name: string): Promise<{ id: number; name: string } | undefined>;
  /**
   * Adds the server with this key; a removed server of the same name comes back with it (and its
   * history). Undefined, and nothing changed, when the network has a server of that name.
   */
  addServer(networkId: number, name: string, apiKey: string, nowMs: number): Promise<number | undefined>;
  /**
   * Gives the server `apiKey`; its key until now stays accepted until `oldKeyValidUntilMs` (not at
   * all when that is not after `nowMs`). Retired keys whose time is over are forgotten.
   */
  rotateKey(serverId: number, apiKey: string, nowMs: number, oldKeyValidUntilMs: number): Promise<void>;
  /** Removes the server: its key and its retired keys stop being accepted at once. */
  removeServer(serverId: number, nowMs: number): Promise<void>;
  /** The network's servers (not removed) by name, at most 1000, with their retired keys valid after `nowMs`. */
  list(networkId: number, nowMs: number): Promise<ManagedServer[]>;
}
