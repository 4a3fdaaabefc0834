import type { Clock } from '../../ports/clock.js';
import type { AuditVia } from '../store/ports/audit-log.js';
import type { ServiceStorage } from '../store/ports/storage.js';
import type { ServiceStoresPorts } from '../store/ports/stores.js';
import type { ManagedServer } from '../store/server-rows.js';
import { checkGraceMs, randomServerKey, type ServerKeyGenerator } from './server-key.js';
import { ServerManagementError } from './server-management-error.js';

/** Names of networks and servers made here: they appear in URLs, the panel and the audit log. */
export const MANAGED_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const NAME_HINT = '1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit';

/** Who made a change, as the audit log records it. */
export interface ManagementActor {
  actor: string;
  via: AuditVia;
}

/** The command line's changes, recorded like the admin API's (`bailiff service ...` runs as the operator). */
export const COMMAND_LINE_ACTOR: ManagementActor = { actor: 'command line', via: 'admin' };

export interface ServerManagementDeps {
  storage: ServiceStorage;
  clock: Clock;
  /** @default 32 random bytes, base64url */
  newKey?: ServerKeyGenerator;
  /** Told after a key stopped being accepted, so a running instance ends the streams opened with it at once. */
  onKeysRevoked?: () => void;
}

export interface NewServer {
  id: number;
  name: string;
  /** The key in clear: shown once, never stored. */
  apiKey: string;
}

export interface RotatedKey {
  /** The new key in clear: shown once, never stored. */
  apiKey: string;
  /** Until when the old key is still accepted; null when it stopped at once. */
  oldKeyValidUntilMs: number | null;
}

function checkName(what: 'network' | 'server', name: string): string {
  if (!MANAGED_NAME_PATTERN.test(name)) {
    throw new ServerManagementError(400, `${what}: '${name.slice(0, 80)}' is not a valid name (${NAME_HINT})`);
  }
  return name;
}

/** The id of the network named `name`; a 404 naming the networks there are otherwise. */
export async function networkIdByName(stores: ServiceStoresPorts, name: string): Promise<number> {
  const id = await stores.networks.findNetwork(name);
  if (id !== undefined) return id;
  const known = (await stores.networks.listNetworks()).map((network) => network.name);
  const listed = known.length === 0 ? 'none yet (add one with `bailiff service network add NAME`)' : known.join(', ');
  throw new ServerManagementError(404, `network: no network named '${name.slice(0, 80)}'; networks: ${listed}`);
}

async function serverIdByName(stores: ServiceStoresPorts, networkId: number, name: string): Promise<number> {
  const server = await stores.serverKeys.findServer(networkId, name);
  if (server) return server.id;
  throw new ServerManagementError(404, `server: no server named '${name.slice(0, 80)}' in this network`);
}

/**
 * Networks, servers and keys as operators manage them, the same from the command line, the admin
 * API and the panel: each change is one transaction with its audit log entry, and a key is only
 * ever seen in clear in the answer that made it.
 */
export class ServerManagement {
  private readonly newKey: ServerKeyGenerator;

  constructor(private readonly deps: ServerManagementDeps) {
    this.newKey = deps.newKey ?? randomServerKey;
  }

  /** Adds a network; a 409 when one of that name exists. */
  addNetwork(name: string, by: ManagementActor): Promise<{ id: number; name: string }> {
    checkName('network', name);
    return this.deps.storage.transaction(async (stores) => {
      if ((await stores.networks.findNetwork(name)) !== undefined) {
        throw new ServerManagementError(409, `network: a network named '${name}' exists`);
      }
      const id = await stores.networks.ensureNetwork(name);
      await this.audit(stores, id, by, 'network.create', name);
      return { id, name };
    });
  }

  /** Adds a server with a new key (returned once); a 409 when the network has a server of that name. */
  addServer(networkId: number, name: string, by: ManagementActor): Promise<NewServer> {
    checkName('server', name);
    const apiKey = this.newKey();
    return this.deps.storage.transaction(async (stores) => {
      const id = await stores.serverKeys.addServer(networkId, name, apiKey, this.deps.clock.now());
      if (id === undefined) throw new ServerManagementError(409, `server: a server named '${name}' exists`);
      await this.audit(stores, networkId, by, 'server.create', name);
      return { id, name, apiKey };
    });
  }

  /** Gives the server a new key (returned once); its old key stays accepted for `graceMs`. */
  async rotateKey(networkId: number, server: string, graceMs: number, by: ManagementActor): Promise<RotatedKey> {
    checkGraceMs(graceMs);
    const apiKey = this.newKey();
    const rotated = await this.deps.storage.transaction(async (stores) => {
      const serverId = await serverIdByName(stores, networkId, server);
      const nowMs = this.deps.clock.now();
      const oldKeyValidUntilMs = graceMs > 0 ? nowMs + graceMs : null;
      await stores.serverKeys.rotateKey(serverId, apiKey, nowMs, oldKeyValidUntilMs ?? nowMs);
      await this.audit(stores, networkId, by, 'server.key-rotate', server, {
        graceSeconds: Math.round(graceMs / 1000),
        oldKeyValidUntil: oldKeyValidUntilMs === null ? null : new Date(oldKeyValidUntilMs).toISOString(),
      });
      return { apiKey, oldKeyValidUntilMs };
    });
    this.deps.onKeysRevoked?.();
    return rotated;
  }

  /** Removes the server: none of its keys is accepted any more; its history stays. */
  async removeServer(networkId: number, server: string, by: ManagementActor): Promise<void> {
    await this.deps.storage.transaction(async (stores) => {
      const serverId = await serverIdByName(stores, networkId, server);
      await stores.serverKeys.removeServer(serverId, this.deps.clock.now());
      await this.audit(stores, networkId, by, 'server.remove', server);
    });
    this.deps.onKeysRevoked?.();
  }

  /** The network's servers with when each key was set and until when old keys are accepted; never a key. */
  listServers(networkId: number): Promise<ManagedServer[]> {
    return this.deps.storage.stores.serverKeys.list(networkId, this.deps.clock.now());
  }

  private audit(
    stores: ServiceStoresPorts,
    networkId: number,
    by: ManagementActor,
    action: string,
    subject: string,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    return stores.auditLog.record({
      networkId,
      actor: by.actor,
      via: by.via,
      action,
      subject,
      ...(detail ? { detail } : {}),
      atMs: this.deps.clock.now(),
    });
  }
}
