import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { PunishmentType } from '../../src/contract/schemas.js';
import type { Clock } from '../../src/ports/clock.js';

/** The type catalogue, fetched once and kept for `ttlMs`; a failure is not cached. */
export function cachedPunishmentTypes(
  client: Pick<ModerationApi, 'punishmentTypes'>,
  clock: Clock,
  ttlMs = 5 * 60_000,
): () => Promise<PunishmentType[]> {
  let cached: { types: PunishmentType[]; at: number } | undefined;
  return async () => {
    if (cached && clock.now() - cached.at < ttlMs) return cached.types;
    const { data } = await client.punishmentTypes();
    cached = { types: data, at: clock.now() };
    return data;
  };
}
