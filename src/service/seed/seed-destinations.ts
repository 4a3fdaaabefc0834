import { refusedDestinationMessage } from '../webhooks/destination.js';
import { SeedError } from './load-seed.js';
import type { ParsedSeed } from './seed-schema.js';

/**
 * Refuses a seed whose webhook URL is or resolves to an internal address, as the admin API refuses
 * it: the seed is another way to save a webhook.
 */
export async function refuseSeedDestinations(
  seed: ParsedSeed,
  destinations: { checkDestination(url: string): Promise<string | undefined> },
): Promise<void> {
  for (const [n, network] of seed.networks.entries()) {
    for (const [w, webhook] of network.webhooks.entries()) {
      const problem = await destinations.checkDestination(webhook.url);
      if (problem)
        throw new SeedError(`seed: networks[${n}].webhooks[${w}].url: ${refusedDestinationMessage(problem)}`);
    }
  }
}
