import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { createError } from '../../errors/create-error.js';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has; rejects when it has none. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Where webhooks may be sent. */
export interface DestinationPolicy {
  /**
   * Loopback, private, link-local and the other internal ranges are allowed too (the
   * `--webhooks-allow-private` setting). @default false
   */
  allowPrivate: boolean;
  /** @default the system's resolver (`dns.lookup`, every address) */
  resolve: HostResolver;
}

export const DEFAULT_DESTINATION_POLICY: DestinationPolicy = { allowPrivate: false, resolve: systemResolver };

/** A webhook destination the policy refuses; permanent, never retried. */
export class DestinationRefused extends createError('BAILIFF_SERVICE_WEBHOOK_DESTINATION', 'DestinationRefused') {}

/** What each refused range is called in a message. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private address',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  rfc6145: 'an IPv4-translated address (RFC 6145)',
  rfc6052: 'a NAT64 address (64:ff9b::/96)',
  '6to4': 'a 6to4 address (2002::/16), which carries an IPv4 address',
  teredo: 'a Teredo address (2001::/32), which carries an IPv4 address',
};

/**
 * What kind of internal address this is, or undefined for an address that may receive webhooks:
 * only ordinary unicast addresses on the internet may (ipaddr.js `range()` is `unicast`). An
 * IPv4-mapped IPv6 address is judged as its IPv4 address; the rest of `::/8` (IPv4-compatible
 * addresses) is refused. Anything that is not an address is refused too.
 */
function internalKind(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  const parsed = ipaddr.process(bare);
  const range = parsed.range();
  if (range !== 'unicast') return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts[0]! < 0x100) return 'a reserved address (::/8)';
  return undefined;
}

/** Why an address may not receive webhooks (`127.0.0.1 is a loopback address`), or undefined when it may. */
export function addressProblem(address: string): string | undefined {
  const kind = internalKind(address);
  return kind === undefined ? undefined : `${address} is ${kind}`;
}

/** A URL's host as the resolver and `addressProblem` take it: no brackets, no trailing dot, lower case. */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Why a URL's host may not receive webhooks, without resolving it: an internal IP literal (every
 * spelling the URL parser turns into one, such as `2130706433` or `0x7f.1`), or `localhost`.
 * Undefined for a host name, which is checked on each address it resolves to.
 */
export function literalHostProblem(url: URL): string | undefined {
  const host = bareHost(url.hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return `${url.hostname} is a loopback name`;
  return ipaddr.isValid(host) ? addressProblem(host) : undefined;
}

/** The problem of a URL's destination at send time, before connecting (names are checked as they resolve). */
export function literalDestinationProblem(url: string, policy: DestinationPolicy): string | undefined {
  if (policy.allowPrivate) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the URL cannot be parsed';
  }
  return literalHostProblem(parsed);
}

/** Why one of the addresses a host resolved to may not receive webhooks. */
export function resolvedProblem(hostname: string, addresses: readonly ResolvedAddress[]): string | undefined {
  for (const { address } of addresses) {
    const kind = internalKind(address);
    if (kind !== undefined) return `${hostname} resolves to ${address}, ${kind}`;
  }
  return undefined;
}

/**
 * The problem of a webhook URL when it is saved: its host is or resolves to an internal address.
 * A name that does not resolve now is accepted (DNS may be away): each delivery checks the
 * addresses it connects to.
 */
export async function destinationProblem(url: string, policy: DestinationPolicy): Promise<string | undefined> {
  const literal = literalDestinationProblem(url, policy);
  if (literal !== undefined || policy.allowPrivate) return literal;
  const { hostname } = new URL(url);
  const host = bareHost(hostname);
  if (ipaddr.isValid(host)) return undefined;
  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    return undefined;
  }
  return resolvedProblem(hostname, addresses);
}

/** The message a refused webhook URL is answered with, naming the problem and the setting. */
export function refusedDestinationMessage(problem: string): string {
  return `the webhook destination is refused: ${problem}; webhooks go to the internet only, unless the operator starts the service with --webhooks-allow-private`;
}
