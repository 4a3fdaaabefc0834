import type { IpRecord } from './ip-record.js';

/** How this server links accounts from its own record of addresses. */
export interface LinkSettings {
  /** An address seen with more accounts than this links none of them. */
  sharedIpThreshold: number;
  /** Addresses older than this are forgotten, and link nothing. */
  keepMs: number;
}

export interface LocalLinkedAccount {
  uuid: string;
  name: string;
  /** Addresses both used, with when this account was last seen on each; most recent first. */
  sharedIps: Array<{ ip: string; lastSeenAt: number }>;
  lastSeenAt: number;
}

/**
 * Accounts linked to `uuid` by this server's record: seen on one of its addresses within the
 * kept period, on addresses seen with at most `sharedIpThreshold` accounts. `extraIp` (the address
 * of a join being decided, not recorded yet) counts as one of its addresses. Most recent first.
 */
export function localLinkedAccounts(
  record: IpRecord,
  settings: LinkSettings,
  uuid: string,
  nowMs: number,
  extraIp?: string,
): LocalLinkedAccount[] {
  const self = uuid.toLowerCase();
  const sinceMs = nowMs - settings.keepMs;
  const addresses = new Set(record.addressesOf(self, sinceMs).map((seen) => seen.ip));
  if (extraIp !== undefined) addresses.add(extraIp);
  const byUuid = new Map<string, LocalLinkedAccount>();
  for (const ip of addresses) {
    const accounts = record.accountsOn(ip, sinceMs);
    const others = accounts.filter((account) => account.uuid !== self);
    // The join being decided is one more account on its address.
    const count = others.length + 1;
    if (count > settings.sharedIpThreshold) continue;
    for (const account of others) {
      const linked = byUuid.get(account.uuid) ?? {
        uuid: account.uuid,
        name: account.name,
        sharedIps: [],
        lastSeenAt: 0,
      };
      linked.sharedIps.push({ ip, lastSeenAt: account.lastSeenAt });
      linked.lastSeenAt = Math.max(linked.lastSeenAt, account.lastSeenAt);
      byUuid.set(account.uuid, linked);
    }
  }
  const linked = [...byUuid.values()];
  for (const account of linked) account.sharedIps.sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  return linked.sort((a, b) => b.lastSeenAt - a.lastSeenAt || a.name.localeCompare(b.name));
}
