import type { IncomingMessage } from 'node:http';
import { IP_RANGE_EXPECTED, type IpRange, parseIpAddress, parseIpRange, rangeContains } from '../../ip/ip-range.js';
import { type ForwardedElement, parseForwardedLine } from './forwarded-header.js';

/** The header a trusted proxy writes the client's address in. */
export const PROXY_HEADERS = ['x-forwarded-for', 'forwarded'] as const;
export type ProxyHeader = (typeof PROXY_HEADERS)[number];

/** Which peers are proxies whose forwarding header is believed, and which header they write. */
export interface ProxyTrust {
  readonly proxies: readonly IpRange[];
  readonly header: ProxyHeader;
}

/** Where a request really comes from. */
export interface ClientOrigin {
  /** The client's address: the peer's, or the right-most address a trusted proxy did not vouch for. */
  address: string;
  /** `https` or `http` as the nearest trusted proxy reported it; undefined when none did. */
  protocol?: 'http' | 'https';
}

/** Addresses and CIDR ranges of proxies; throws a RangeError naming an entry that is neither. */
export function parseTrustedProxies(entries: readonly string[], name = 'trustProxy'): IpRange[] {
  return entries.map((entry) => {
    const range = parseIpRange(entry);
    if (!range) throw new RangeError(`${name}: '${entry.slice(0, 60)}' ${IP_RANGE_EXPECTED}`);
    return range;
  });
}

/**
 * One hop's address as proxies write it (`192.0.2.43`, `192.0.2.43:47011`, `[2001:db8::17]:4711`,
 * `2001:db8::17`), canonical; undefined for `unknown`, an obfuscated name or anything else.
 */
export function hopAddress(text: string): string | undefined {
  let address = text.trim();
  if (address.startsWith('[')) {
    const close = address.indexOf(']');
    const rest = address.slice(close + 1);
    if (close < 0 || !(rest === '' || /^:\d{1,5}$/.test(rest))) return undefined;
    address = address.slice(1, close);
  } else if (/^[\d.]+:\d{1,5}$/.test(address)) {
    address = address.slice(0, address.indexOf(':'));
  }
  return parseIpAddress(address)?.text;
}

function isTrusted(trust: ProxyTrust, address: string): boolean {
  const parsed = parseIpAddress(address);
  return parsed !== undefined && trust.proxies.some((range) => rangeContains(range, parsed));
}

/** Every line of `name` as sent: node joins repeated lines, which would let one broken line spoil the next. */
function headerLines(request: IncomingMessage, name: string): string[] {
  const lines: string[] = [];
  const raw = request.rawHeaders;
  for (let at = 0; at < raw.length; at += 2) if (raw[at]!.toLowerCase() === name) lines.push(raw[at + 1]!);
  return lines;
}

/** The hops the header lists, client side first: an address per hop, undefined where a hop cannot be read. */
function hopsOf(request: IncomingMessage, header: ProxyHeader): Array<string | undefined> {
  if (header === 'x-forwarded-for') {
    return headerLines(request, header).flatMap((line) =>
      line
        .split(',')
        .filter((hop) => hop.trim() !== '')
        .map(hopAddress),
    );
  }
  return forwardedElements(request).map((element) =>
    element?.for === undefined ? undefined : hopAddress(element.for),
  );
}

function forwardedElements(request: IncomingMessage): Array<ForwardedElement | undefined> {
  return headerLines(request, 'forwarded').flatMap(parseForwardedLine);
}

function asProtocol(value: string | undefined): 'http' | 'https' | undefined {
  const protocol = value?.trim().toLowerCase();
  return protocol === 'http' || protocol === 'https' ? protocol : undefined;
}

/** The protocol the nearest proxy saw: the last `X-Forwarded-Proto` entry, or the last element's `proto`. */
function protocolOf(request: IncomingMessage, header: ProxyHeader): 'http' | 'https' | undefined {
  if (header === 'forwarded') return asProtocol(forwardedElements(request).at(-1)?.proto);
  const lines = headerLines(request, 'x-forwarded-proto');
  return asProtocol(lines.at(-1)?.split(',').at(-1));
}

/**
 * Where `request` comes from. Without `trust`, or from a peer that is not a trusted proxy, that is
 * the peer. From a trusted proxy, the header is read from the right: each address a trusted proxy
 * wrote is believed, and the first one that is not itself a trusted proxy is the client (so
 * whatever a client wrote into the header itself, left of that, is never read). A hop that cannot be
 * read stops the walk at the last address known.
 */
export function clientOrigin(request: IncomingMessage, trust: ProxyTrust | undefined): ClientOrigin {
  const peer = request.socket.remoteAddress ?? '';
  if (!trust || !isTrusted(trust, peer)) return { address: peer };
  const protocol = protocolOf(request, trust.header);
  const origin = (address: string): ClientOrigin => (protocol ? { address, protocol } : { address });
  const hops = hopsOf(request, trust.header);
  let address = peer;
  for (let at = hops.length - 1; at >= 0; at -= 1) {
    const hop = hops[at];
    if (hop === undefined) return origin(address);
    address = hop;
    if (!isTrusted(trust, address)) return origin(address);
  }
  return origin(address);
}
