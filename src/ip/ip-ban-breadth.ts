import type { IpRange } from './ip-range.js';

/** The shortest prefix an IP ban may have, per address family: broader ranges are refused. */
export interface IpBanPrefixLimits {
  /** @default 16 */
  ipv4: number;
  /** @default 48 */
  ipv6: number;
}

export const DEFAULT_IP_BAN_PREFIX_LIMITS: IpBanPrefixLimits = { ipv4: 16, ipv6: 48 };

/**
 * The shortest prefix allowed for the range's family when the range is broader than that (a ban
 * of `0.0.0.0/0` would refuse every player, staff included); undefined when it may be banned.
 */
export function tooBroadIpBan(range: IpRange, limits: IpBanPrefixLimits): number | undefined {
  const shortest = range.version === 4 ? limits.ipv4 : limits.ipv6;
  return range.prefix < shortest ? shortest : undefined;
}
