import { readEvasionFields } from '../../contract/evasion-data.js';
import { type IpRange, maskOf } from '../../ip/ip-range.js';

/**
 * IP bans are stored under a prefix key (`ip_ban_key`): the version, the range's network-order
 * words in hex and its prefix length, e.g. `4:cb007100/24` for 203.0.113.0/24. An address is held
 * by a range exactly when the range's key is one of the address's keys at each prefix length, so
 * the login check finds the IP bans of an address with at most 33 (IPv4) or 129 (IPv6) index probes,
 * however many IP bans the network has.
 */
function keyOf(version: 4 | 6, words: readonly number[], prefix: number): string {
  let hex = '';
  for (let at = 0; at < words.length; at += 1) {
    hex += ((words[at]! & maskOf(prefix - at * 32)) >>> 0).toString(16).padStart(8, '0');
  }
  return `${version}:${hex}/${prefix}`;
}

/** The key an IP ban of `range` is stored under. */
export function ipBanKey(range: IpRange): string {
  return keyOf(range.version, range.words, range.prefix);
}

/** Every key a range holding `address` can have: one per prefix length, widest first. */
export function ipBanKeysHolding(address: IpRange): string[] {
  const keys: string[] = [];
  for (let prefix = 0; prefix <= address.prefix; prefix += 1) keys.push(keyOf(address.version, address.words, prefix));
  return keys;
}

/** The key of a punishment with this `data`, or null when it is no IP ban. */
export function ipBanKeyOfData(data: unknown): string | null {
  const range = readEvasionFields(data).ipAddress;
  return range === undefined ? null : ipBanKey(range);
}
