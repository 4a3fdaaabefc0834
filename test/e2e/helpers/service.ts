import type { Logger } from '../../../src/ports/logger.js';
import { startService } from '../../../src/service/index.js';
import { offlineUuid } from './bots.js';

export const NETWORK = 'e2e';
export const API_KEY = 'e2e-server-key-0123456789';
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

/**
 * The reference service with one network and one server key; the players are registered up front
 * under `uuidOf(name)` (default: the Java offline UUID).
 */
export function startTestService(options: {
  dbPath: string;
  port?: number;
  players: string[];
  /** Seed punishments (see helpers/ban-population.ts). */
  punishments?: Array<{ targetUuid: string; typeOrdinal: number; id?: string; reason?: string; createdAt?: string }>;
  rateLimitPerMinute?: number;
  /** Ban evasion: accounts above which an address links nobody. */
  sharedIpThreshold?: number;
  uuidOf?: (name: string) => string;
  /** @default silent */
  logger?: Logger;
}) {
  const uuidOf = options.uuidOf ?? offlineUuid;
  return startService({
    host: '127.0.0.1',
    port: options.port ?? 0,
    dbPath: options.dbPath,
    adminToken: ADMIN_TOKEN,
    ...(options.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: options.rateLimitPerMinute }),
    ...(options.sharedIpThreshold === undefined ? {} : { sharedIpThreshold: options.sharedIpThreshold }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    seed: {
      networks: [
        {
          name: NETWORK,
          servers: [{ name: 'game-1', apiKey: API_KEY }],
          players: options.players.map((name) => ({ uuid: uuidOf(name), name })),
          punishments: options.punishments ?? [],
        },
      ],
    },
  });
}

export interface AdminPunishment {
  punishment: { id: string; status: string; started: string | null };
  acknowledgements: Array<{ executedAt: string; success: boolean; errorMessage?: string | null }>;
  notificationAcknowledged: boolean;
}

/** The admin API of the reference service. */
export function adminApi(baseUrl: () => string, token = ADMIN_TOKEN, network = NETWORK) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl()}/admin/v1/networks/${network}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  return {
    punishment: (id: string) => call('GET', `/punishments/${id}`) as Promise<AdminPunishment>,
    setStatus: (id: string, status: string) => call('POST', `/punishments/${id}/status`, { status }),
    addPlayer: (uuid: string, name: string) => call('POST', '/players', { uuid, name }),
  };
}
