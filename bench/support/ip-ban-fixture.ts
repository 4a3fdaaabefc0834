import { randomUUID } from 'node:crypto';
import { fromServicePunishment } from '../../plugin/cache/cached-punishment.js';
import { PunishmentCache } from '../../plugin/cache/punishment-cache.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { createPolicy } from '../../plugin/enforcement/policy.js';
import { openDb } from '../../src/db/open-db.js';

/** Among the banned addresses: /16 and /24 ranges, IPv6 addresses, the rest single IPv4 addresses. */
const RANGES_16 = 100;
const RANGES_24 = 1000;
const IPV6_ADDRESSES = 1000;

/**
 * The address (or range) of the `at`-th IP ban: /16 ranges in 11.0.0.0/8, /24 ranges in
 * 172.16.0.0/12, IPv6 addresses in 2001:db8:1::/48, single addresses in 10.0.0.0/8.
 * Deterministic, all distinct.
 */
export function bannedAddress(at: number): string {
  if (at < RANGES_16) return `11.${at}.0.0/16`;
  if (at < RANGES_16 + RANGES_24) {
    const index = at - RANGES_16;
    return `172.${16 + (index >> 8)}.${index & 255}.0/24`;
  }
  if (at < RANGES_16 + RANGES_24 + IPV6_ADDRESSES) return `2001:db8:1::${(at - RANGES_16 - RANGES_24).toString(16)}`;
  return `10.${(at >> 16) & 255}.${(at >> 8) & 255}.${at & 255}`;
}

/**
 * Writes `count` IP bans to a Bailiff database, each a ban of its own player carrying the address
 * of {@link bannedAddress}: `count` cached bans and `count` banned addresses. Returns the target UUIDs.
 */
export function fillIpBanDatabase(path: string, count: number): string[] {
  const db = openDb(path);
  const cache = new PunishmentCache(db, createPolicy(bailiffConfigSchema.parse({}).enforcement));
  const targets: string[] = [];
  const startedAt = new Date().toISOString();
  db.transaction(() => {
    for (let at = 0; at < count; at += 1) {
      const targetUuid = randomUUID();
      targets.push(targetUuid);
      const punishment = fromServicePunishment({
        id: `ip${at}`,
        targetUuid,
        targetName: `player${at}`,
        issuerName: 'bench',
        typeOrdinal: 2,
        reason: 'bench',
        duration: at % 2 === 0 ? -1 : 86_400_000,
        createdAt: new Date(Date.UTC(2026, 0, 1) + at).toISOString(),
        status: 'active',
        started: startedAt,
        data: { ipAddress: bannedAddress(at) },
      });
      cache.save({ ...punishment, acknowledged: true, notified: true }, Date.now());
    }
  })();
  db.close();
  return targets;
}
