import { fillCacheDatabase } from './cache-fixture.js';

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
  return fillCacheDatabase(path, count, (at) => ({
    id: `ip${at}`,
    typeOrdinal: 2,
    duration: at % 2 === 0 ? -1 : 86_400_000,
    data: { ipAddress: bannedAddress(at) },
  }));
}
