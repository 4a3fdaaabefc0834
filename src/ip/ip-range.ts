import { isIPv4, isIPv6 } from 'node:net';

/**
 * An IPv4 or IPv6 address or CIDR range, host bits cleared. An address is a range of one
 * (prefix 32 or 128). An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is read as IPv4, as the
 * hosts report it.
 */
export interface IpRange {
  readonly version: 4 | 6;
  /** Unsigned 32-bit words, most significant first: one for IPv4, four for IPv6. */
  readonly words: readonly number[];
  readonly prefix: number;
  /** Canonical text: `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32` (RFC 5952 for IPv6). */
  readonly text: string;
}

/** What a bad address or range is told: what it must look like. */
export const IP_RANGE_EXPECTED = 'must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24';

/** Bits of a word kept by `bits` (0-32) leading ones. */
export function maskOf(bits: number): number {
  if (bits <= 0) return 0;
  if (bits >= 32) return 0xffffffff;
  return (0xffffffff << (32 - bits)) >>> 0;
}

function ipv4Words(text: string): number[] {
  let value = 0;
  for (const part of text.split('.')) value = value * 256 + Number(part);
  return [value >>> 0];
}

function ipv6Words(text: string): number[] {
  let head = text;
  const groups: number[] = [];
  // A trailing dotted quad (`::ffff:1.2.3.4`) is the last two groups.
  const lastColon = head.lastIndexOf(':');
  const tail = head.slice(lastColon + 1);
  const tailGroups: number[] = [];
  if (tail.includes('.')) {
    const [v4] = ipv4Words(tail);
    tailGroups.push(v4! >>> 16, v4! & 0xffff);
    head = head.slice(0, lastColon + 1);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left = '', right] = head.split('::');
  const parse = (side: string) => (side === '' ? [] : side.split(':').map((group) => Number.parseInt(group, 16)));
  const leftGroups = parse(left);
  const rightGroups = [...(right === undefined ? [] : parse(right)), ...tailGroups];
  const missing = 8 - leftGroups.length - rightGroups.length;
  if (right === undefined) groups.push(...leftGroups, ...tailGroups);
  else groups.push(...leftGroups, ...new Array<number>(missing).fill(0), ...rightGroups);
  const words: number[] = [];
  for (let at = 0; at < 8; at += 2) words.push(((groups[at]! << 16) | groups[at + 1]!) >>> 0);
  return words;
}

/** `203.0.113.7` from its unsigned (or signed) 32-bit value. */
export function ipv4Text(word: number): string {
  return `${(word >>> 24) & 255}.${(word >>> 16) & 255}.${(word >>> 8) & 255}.${word & 255}`;
}

/** RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
function ipv6Text(words: readonly number[]): string {
  const groups = words.flatMap((word) => [word >>> 16, word & 0xffff]);
  let bestStart = -1;
  let bestLength = 1;
  for (let at = 0; at < 8; ) {
    if (groups[at] !== 0) {
      at += 1;
      continue;
    }
    let end = at;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - at > bestLength) {
      bestStart = at;
      bestLength = end - at;
    }
    at = end;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((group) => group.toString(16))
      .join(':');
  if (bestStart === -1) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

function isIpv4Mapped(words: readonly number[]): boolean {
  return words[0] === 0 && words[1] === 0 && words[2] === 0xffff;
}

/** The range of `prefix` bits holding `rawWords` (host bits cleared), with its canonical text. */
export function rangeOf(version: 4 | 6, rawWords: readonly number[], prefix: number): IpRange {
  const words = rawWords.map((word, at) => (word & maskOf(prefix - at * 32)) >>> 0);
  const address = version === 4 ? ipv4Text(words[0]!) : ipv6Text(words);
  const full = version === 4 ? 32 : 128;
  return { version, words, prefix, text: prefix === full ? address : `${address}/${prefix}` };
}

/**
 * An address (`203.0.113.7`, `2001:db8::1`) or CIDR range (`203.0.113.0/24`), canonical with host
 * bits cleared; undefined when it is neither. Zone ids (`fe80::1%eth0`) are refused.
 */
export function parseIpRange(input: string): IpRange | undefined {
  const trimmed = input.trim();
  const slash = trimmed.indexOf('/');
  const address = slash === -1 ? trimmed : trimmed.slice(0, slash);
  const prefixText = slash === -1 ? undefined : trimmed.slice(slash + 1);
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  if (isIPv4(address)) {
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    return prefix <= 32 ? rangeOf(4, ipv4Words(address), prefix) : undefined;
  }
  if (!isIPv6(address) || address.includes('%')) return undefined;
  const prefix = prefixText === undefined ? 128 : Number(prefixText);
  if (prefix > 128) return undefined;
  const words = ipv6Words(address.toLowerCase());
  if (isIpv4Mapped(words) && prefix >= 96) return rangeOf(4, [words[3]!], prefix - 96);
  return rangeOf(6, words, prefix);
}

/**
 * The words of an address (no `/prefix`) without its canonical text: the join decision's IPv6 path.
 * An IPv4-mapped IPv6 address is IPv4.
 */
export function addressWords(input: string): { version: 4 | 6; words: number[] } | undefined {
  if (isIPv4(input)) return { version: 4, words: ipv4Words(input) };
  if (!isIPv6(input) || input.includes('%')) return undefined;
  const words = ipv6Words(input.toLowerCase());
  return isIpv4Mapped(words) ? { version: 4, words: [words[3]!] } : { version: 6, words };
}

/** An address alone (no `/prefix`), canonical; undefined for anything else. */
export function parseIpAddress(input: string): IpRange | undefined {
  const range = parseIpRange(input);
  if (!range || input.includes('/')) return undefined;
  return range;
}

/** Whether `range` holds `address` (an address of the same version). */
export function rangeContains(range: IpRange, address: IpRange): boolean {
  if (range.version !== address.version || address.prefix < range.prefix) return false;
  return range.words.every((word, at) => (address.words[at]! & maskOf(range.prefix - at * 32)) >>> 0 === word);
}

/**
 * A dotted-quad IPv4 address as a signed 32-bit integer, without allocating; NaN for anything else
 * (IPv6 included). The join decision's fast path.
 */
export function ipv4ToInt(text: string): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 46) {
      if (digits === 0 || dots === 3) return Number.NaN;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots += 1;
    } else if (code >= 48 && code <= 57 && digits < 3) {
      part = part * 10 + (code - 48);
      if (part > 255) return Number.NaN;
      digits += 1;
    } else {
      return Number.NaN;
    }
  }
  if (digits === 0 || dots !== 3) return Number.NaN;
  return (value * 256 + part) | 0;
}
