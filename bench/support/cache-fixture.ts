import { randomUUID } from 'node:crypto';
import { fromServicePunishment } from '../../plugin/cache/cached-punishment.js';
import { PunishmentCache } from '../../plugin/cache/punishment-cache.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { createPolicy } from '../../plugin/enforcement/policy.js';
import { openDb } from '../../src/db/open-db.js';

/**
 * Writes `count` enforced punishments to a Bailiff database, one player each: half bans, half
 * mutes, half permanent, all acknowledged and notified. Returns the target UUIDs in order.
 */
export function fillCacheDatabase(path: string, count: number): string[] {
  const db = openDb(path);
  const cache = new PunishmentCache(db, createPolicy(bailiffConfigSchema.parse({}).enforcement));
  const targets: string[] = [];
  const startedAt = new Date().toISOString();
  db.transaction(() => {
    for (let at = 0; at < count; at += 1) {
      const targetUuid = randomUUID();
      targets.push(targetUuid);
      const punishment = fromServicePunishment({
        id: `p${at}`,
        targetUuid,
        targetName: `player${at}`,
        issuerName: 'bench',
        typeOrdinal: at % 2 === 0 ? 2 : 6,
        reason: 'bench',
        duration: at % 4 < 2 ? -1 : 86_400_000,
        createdAt: new Date(Date.UTC(2026, 0, 1) + at).toISOString(),
        status: 'active',
        started: startedAt,
      });
      cache.save({ ...punishment, acknowledged: true, notified: true }, Date.now());
    }
  })();
  db.close();
  return targets;
}
