import { randomUUID } from 'node:crypto';
import { fromServicePunishment } from '../../plugin/cache/cached-punishment.js';
import { PunishmentCache } from '../../plugin/cache/punishment-cache.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { createPolicy } from '../../plugin/kinds/policy.js';
import type { Punishment } from '../../src/contract/schemas.js';
import { openDb } from '../../src/db/open-db.js';

/** The fields of the `at`-th punishment that differ from one fixture to another. */
export type PunishmentShape = (at: number) => Pick<Punishment, 'id' | 'typeOrdinal' | 'duration'> & Partial<Punishment>;

/** Half bans, half mutes, half permanent. */
const BANS_AND_MUTES: PunishmentShape = (at) => ({
  id: `p${at}`,
  typeOrdinal: at % 2 === 0 ? 2 : 6,
  duration: at % 4 < 2 ? -1 : 86_400_000,
});

/**
 * Writes `count` enforced punishments to a Bailiff database, one player each, all acknowledged
 * and notified, shaped by `shape` (by default half bans, half mutes, half permanent). Returns the
 * target UUIDs in order.
 */
export function fillCacheDatabase(path: string, count: number, shape: PunishmentShape = BANS_AND_MUTES): string[] {
  const db = openDb(path);
  const policy = createPolicy(bailiffConfigSchema.parse({}).enforcement);
  const cache = new PunishmentCache(db, policy.enforcedAs);
  const targets: string[] = [];
  const startedAt = new Date().toISOString();
  db.transaction(() => {
    for (let at = 0; at < count; at += 1) {
      const targetUuid = randomUUID();
      targets.push(targetUuid);
      const punishment = fromServicePunishment({
        targetUuid,
        targetName: `player${at}`,
        issuerName: 'bench',
        reason: 'bench',
        createdAt: new Date(Date.UTC(2026, 0, 1) + at).toISOString(),
        status: 'active',
        started: startedAt,
        ...shape(at),
      });
      cache.save({ ...punishment, acknowledged: true, notified: true }, Date.now());
    }
  })();
  db.close();
  return targets;
}
