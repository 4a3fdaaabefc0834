import type { ServiceStores } from '../context.js';
import type { EvasionSettings } from './evasion-settings.js';

/** An address two accounts share, and when the other account was last seen on it. */
export interface SharedIp {
  ip: string;
  lastSeenAt: number;
}

export interface LinkedAccount {
  uuid: string;
  /** Most recent first. */
  sharedIps: SharedIp[];
  /** The latest of the shared addresses' times. */
  lastSeenAt: number;
}

/**
 * Accounts linked to `uuid`: both seen on one address within the link expiry, on an address seen
 * with at most `sharedIpThreshold` accounts in that time (above it the address links nobody).
 * Most recently seen first.
 */
export async function linkedAccounts(
  stores: Pick<ServiceStores, 'playerIps'>,
  settings: EvasionSettings,
  networkId: number,
  uuid: string,
  nowMs: number,
): Promise<LinkedAccount[]> {
  const self = uuid.toLowerCase();
  const sinceMs = nowMs - settings.linkExpiryMs;
  const byUuid = new Map<string, LinkedAccount>();
  for (const { ip } of await stores.playerIps.addressesOf(networkId, self, sinceMs)) {
    // One more than the threshold is enough to know the address links nobody (a school, a proxy).
    const accounts = await stores.playerIps.accountsOn(networkId, ip, sinceMs, settings.sharedIpThreshold + 1);
    if (accounts.length > settings.sharedIpThreshold) continue;
    for (const account of accounts) {
      if (account.uuid === self) continue;
      const linked = byUuid.get(account.uuid) ?? { uuid: account.uuid, sharedIps: [], lastSeenAt: 0 };
      linked.sharedIps.push({ ip, lastSeenAt: account.lastSeenAt });
      linked.lastSeenAt = Math.max(linked.lastSeenAt, account.lastSeenAt);
      byUuid.set(account.uuid, linked);
    }
  }
  const linked = [...byUuid.values()];
  for (const account of linked) account.sharedIps.sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  return linked.sort((a, b) => b.lastSeenAt - a.lastSeenAt || a.uuid.localeCompare(b.uuid));
}
