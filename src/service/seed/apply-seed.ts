import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { insertPunishment } from '../punishment-actions.js';
import type { ParsedSeed } from './seed-schema.js';

type SeedPunishment = ParsedSeed['networks'][number]['punishments'][number];

// A punishment without an id gets one derived from its content, so loading the seed again finds it.
function seedPunishmentId(networkName: string, index: number, punishment: SeedPunishment): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([networkName, index, punishment]))
    .digest('hex');
  return `seed-${digest.slice(0, 16)}`;
}

/** Writes a seed (webhooks matched by name); everything is an upsert or insert-if-absent, so applying it twice changes nothing. */
export async function applySeed(context: ServiceContext, seed: ParsedSeed): Promise<void> {
  const nowMs = context.clock.now();
  await context.storage.transaction(async (stores) => {
    for (const network of seed.networks) {
      const networkId = await stores.networks.ensureNetwork(network.name);
      if (network.publicList !== undefined) await stores.publicList.setPublic(networkId, network.publicList);
      if (network.appealCooldownHours !== undefined) {
        await stores.appeals.setCooldownHours(networkId, network.appealCooldownHours);
      }
      for (const server of network.servers) await stores.networks.ensureServer(networkId, server.name, server.apiKey);
      for (const player of network.players) await stores.players.save(networkId, player.uuid, player.name);
      for (const ticket of network.tickets) await stores.tickets.save(networkId, ticket);
      for (const [index, punishment] of network.punishments.entries()) {
        const createdAt = punishment.createdAt ? Date.parse(punishment.createdAt) : nowMs;
        await insertPunishment(context, stores, {
          networkId,
          id: punishment.id ?? seedPunishmentId(network.name, index, punishment),
          targetUuid: punishment.targetUuid,
          targetName: (await stores.players.findName(networkId, punishment.targetUuid)) ?? punishment.targetUuid,
          issuerName: punishment.issuerName ?? 'Console',
          typeOrdinal: punishment.typeOrdinal,
          reason: punishment.reason ?? '',
          duration: punishment.duration ?? -1,
          ...(punishment.severity ? { severity: punishment.severity } : {}),
          status: punishment.status ?? 'active',
          createdAt,
          startedAt: punishment.started ? Date.parse(punishment.started) : null,
        });
      }
      // After the punishments, so seeded punishments are not announced as new.
      for (const webhook of network.webhooks) await stores.webhooks.upsertByName(networkId, webhook, nowMs);
    }
  });
}
