import { parseIpRange } from '../../ip/ip-range.js';

/** What an address or range is replaced with on a public page. */
export const HIDDEN_ADDRESS = '[address hidden]';

// Runs of the characters an IPv4/IPv6 address or CIDR range is written with; each is checked by the parser.
const ADDRESS_LIKE = /[0-9A-Fa-f:.]*[0-9A-Fa-f][0-9A-Fa-f:./]*/g;

/**
 * The text with every IPv4 or IPv6 address or range replaced by {@link HIDDEN_ADDRESS}: a reason or
 * name written by staff may hold one, and public pages never show an address.
 */
export function redactAddresses(text: string): string {
  return text.replace(ADDRESS_LIKE, (candidate) => {
    const trimmed = candidate.replace(/[.:/]+$/, '');
    const rest = candidate.slice(trimmed.length);
    if (parseIpRange(trimmed) !== undefined) return HIDDEN_ADDRESS + rest;
    // An IPv4 address with its port, as players paste it.
    const withPort = /^([\d.]+)(:\d{1,5})$/.exec(trimmed);
    if (withPort && parseIpRange(withPort[1]!) !== undefined) return HIDDEN_ADDRESS + withPort[2] + rest;
    return candidate;
  });
}
