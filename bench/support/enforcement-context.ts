import { PunishmentCache } from '../../plugin/cache/punishment-cache.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import type { EnforcementContext } from '../../plugin/enforcement/enforcement-context.js';
import { createPolicy } from '../../plugin/kinds/policy.js';
import { createMessages } from '../../plugin/messages/messages.js';
import type { MessageTable } from '../../plugin/messages/schema.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import type { Db } from '../../src/db/open-db.js';
import { createOutbox, type Outbox } from '../../src/outbox/index.js';
import { systemClock } from '../../src/ports/clock.js';
import { silentLogger } from '../../src/ports/logger.js';

/**
 * The plugin's enforcement context over `db` as a bench drives it: the default policy, the cache
 * (loaded from `db` unless `loadCache` is false), an outbox whose client is never called (it has only a gate) (stop it at
 * the end), `messages`, no players online.
 */
export function benchEnforcementContext(
  db: Db,
  messages: MessageTable,
  options: { appealUrl?: string; loadCache?: boolean } = {},
): { context: EnforcementContext; cache: PunishmentCache; outbox: Outbox } {
  const policy = createPolicy(bailiffConfigSchema.parse({}).enforcement);
  const cache = new PunishmentCache(db, policy.enforcedAs);
  if (options.loadCache !== false) cache.load();
  // A gate, for the drainer's listener: stop() unhooks it.
  const client = { gate: new RateLimitGate() } as unknown as ModerationApi;
  const outbox = createOutbox({ db, client, clock: systemClock, logger: silentLogger });
  const texts = createMessages(messages);
  const context: EnforcementContext = {
    db,
    cache,
    policy: () => policy,
    outbox,
    players: { byUuid: () => undefined },
    messages: () => texts,
    appealUrl: () => options.appealUrl ?? 'https://example.com',
    clock: systemClock,
    logger: silentLogger,
  };
  return { context, cache, outbox };
}
