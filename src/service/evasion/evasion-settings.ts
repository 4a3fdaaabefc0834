import type { IpBanPrefixLimits } from '../../ip/ip-ban-breadth.js';

/** How the reference service links accounts that logged in from the same address. */
export interface EvasionSettings {
  /** An address seen with more accounts than this links none of them (schools, public Wi-Fi, a proxy). */
  sharedIpThreshold: number;
  /** Logins older than this link nothing. */
  linkExpiryMs: number;
  /** IP bans broader than these prefixes are refused (400). */
  ipBanPrefixLimits: IpBanPrefixLimits;
}

export const DEFAULT_SHARED_IP_THRESHOLD = 5;
export const DEFAULT_LINK_EXPIRY_DAYS = 90;
export const DAY_MS = 24 * 60 * 60 * 1000;
