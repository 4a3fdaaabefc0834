import { createModerationClient } from '../../../src/api/client.js';
import type { Punishment } from '../../../src/contract/schemas.js';
import { API_KEY } from './service.js';

/** Every punishment of the last hour at the service, read there directly (not through a proxy). */
export async function punishmentsAtService(serviceUrl: string): Promise<Punishment[]> {
  const client = createModerationClient({ baseUrl: serviceUrl, apiKey: API_KEY });
  const { punishments } = await client.recentPunishments({ hours: 1 });
  // recent answers at most 100: a full page could hide rows, and with them duplicates.
  if (punishments.length >= 100) throw new Error('recent answered a full page: rows may be hidden');
  return punishments;
}
