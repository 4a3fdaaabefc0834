import { type RunningService, type ServiceSeed, startService } from '../../../src/service/index.js';

export const NETWORK = 'outbox-net';
export const API_KEY = 'outbox-test-key-000000001';

/** `count` players, each with one manual ban `ban-<i>`, on one network with one server. */
export function seedWithBans(count: number): ServiceSeed {
  const uuidOf = (index: number) => `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
  return {
    networks: [
      {
        name: NETWORK,
        servers: [{ name: 'survival', apiKey: API_KEY }],
        players: Array.from({ length: count }, (_, index) => ({ uuid: uuidOf(index), name: `player${index}` })),
        punishments: Array.from({ length: count }, (_, index) => ({
          id: `ban-${index}`,
          targetUuid: uuidOf(index),
          typeOrdinal: 2,
          reason: 'test ban',
        })),
      },
    ],
  };
}

export function playerUuid(index: number): string {
  return `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
}

export interface AdminPunishment {
  punishment: { id: string; started?: string | null };
  acknowledgements: Array<{ success: boolean; executedAt: string }>;
  evidence: unknown[];
  notificationAcknowledged: boolean;
}

/** Reads a punishment through the service's admin API. */
export async function adminPunishment(service: RunningService, id: string): Promise<AdminPunishment> {
  const response = await fetch(`${service.url}/admin/v1/networks/${NETWORK}/punishments/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${service.adminToken}` },
  });
  if (!response.ok) throw new Error(`admin read of ${id}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as AdminPunishment;
}

export { startService };
