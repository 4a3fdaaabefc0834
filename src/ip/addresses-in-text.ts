import { isIPv6 } from 'node:net';

/** Where an address (with what belongs to it: prefix, port, brackets, zone) is written in a text. */
export interface AddressSpan {
  start: number;
  end: number;
}

// The longest IPv6 text: six groups and a dotted quad (`ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`).
const MAX_IPV6_LENGTH = 45;

const DOT = 46;
const COLON = 58;
const SLASH = 47;
const STAR = 42;
const PERCENT = 37;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

const isDigit = (code: number) => code >= 48 && code <= 57;
const isHex = (code: number) => isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
const isAlphanumeric = (code: number) => isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isIpv6Character = (code: number) => isHex(code) || code === COLON || code === DOT;

/** The end of the run of digits at `from`, or `from` when there is none. */
function digitsEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && isDigit(text.charCodeAt(at))) at += 1;
  return at;
}

/** `end` moved over `/` and a prefix length, or over `:` and a port, when one follows (and nothing glued after). */
function withSuffix(text: string, end: number, separator: number, maxDigits: number): number {
  if (text.charCodeAt(end) !== separator) return end;
  const digits = digitsEnd(text, end + 1);
  return digits > end + 1 && digits - end - 1 <= maxDigits ? digits : end;
}

interface Ipv4Part {
  start: number;
  end: number;
  kind: 'number' | 'wildcard' | 'other';
}

function ipv4Part(text: string, start: number): Ipv4Part {
  if (text.charCodeAt(start) === STAR) return { start, end: start + 1, kind: 'wildcard' };
  const end = digitsEnd(text, start);
  const isOctet = end - start <= 3 && Number(text.slice(start, end)) <= 255;
  return { start, end, kind: isOctet ? 'number' : 'other' };
}

/**
 * Whether four parts form an address or a wildcard pattern: numbers, then possibly wildcards
 * (`203.0.113.*`, `203.0.*.*`), with at least two numbers.
 */
function isIpv4Window(parts: readonly Ipv4Part[], first: number): boolean {
  let numbers = 0;
  for (let at = first; at < first + 4; at += 1) {
    const kind = parts[at]!.kind;
    if (kind === 'other' || (kind === 'number' && numbers !== at - first)) return false;
    if (kind === 'number') numbers += 1;
  }
  return numbers >= 2;
}

/**
 * Dotted quads: chains of numbers (maximal runs of digits, so `1203.0.113.5` is not one) joined by
 * single dots. Every four parts of a chain that form an address are covered; a chain with several
 * (`1.2.203.0.113.5`) is covered from the first to the last.
 */
function ipv4Spans(text: string, spans: AddressSpan[]): void {
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (!isDigit(code) && code !== STAR) {
      at += 1;
      continue;
    }
    const parts = [ipv4Part(text, at)];
    let end = parts[0]!.end;
    while (text.charCodeAt(end) === DOT) {
      const next = text.charCodeAt(end + 1);
      if (!isDigit(next) && next !== STAR) break;
      const part = ipv4Part(text, end + 1);
      parts.push(part);
      end = part.end;
    }
    let coveredFrom = -1;
    let coveredTo = -1;
    for (let first = 0; first + 4 <= parts.length; first += 1) {
      if (!isIpv4Window(parts, first)) continue;
      if (coveredFrom === -1 || parts[first]!.start > coveredTo) {
        if (coveredFrom !== -1) spans.push(ipv4WithSuffixes(text, coveredFrom, coveredTo));
        coveredFrom = parts[first]!.start;
      }
      coveredTo = parts[first + 3]!.end;
    }
    if (coveredFrom !== -1) spans.push(ipv4WithSuffixes(text, coveredFrom, coveredTo));
    at = end;
  }
}

function ipv4WithSuffixes(text: string, start: number, end: number): AddressSpan {
  const withPrefix = withSuffix(text, end, SLASH, 2);
  return { start, end: withSuffix(text, withPrefix, COLON, 5) };
}

interface Ipv6Find {
  end: number;
  endsWithQuad: boolean;
}

/**
 * The longest IPv6 address written from `start` (a group or a `::`) with two groups at least, a
 * dotted quad counting two; undefined when there is none. The walk reads at most one address's
 * length and checks the shape itself (groups of one to four hex digits joined by single colons,
 * eight of them, or fewer and one `::`; a dotted quad last); node's `isIPv6` confirms the one found.
 */
function ipv6At(text: string, start: number, runEnd: number): Ipv6Find | undefined {
  const limit = Math.min(runEnd, start + MAX_IPV6_LENGTH);
  let best: Ipv6Find | undefined;
  let groups = 0;
  let compressed = false;
  const consider = (end: number, endsWithQuad: boolean) => {
    if (groups >= 2 && (compressed ? groups <= 7 : groups === 8)) best = { end, endsWithQuad };
  };
  let at = start;
  if (text.charCodeAt(at) === COLON) {
    if (text.charCodeAt(at + 1) !== COLON || text.charCodeAt(at + 2) === COLON) return undefined;
    compressed = true;
    at += 2;
  }
  while (at < limit && isHex(text.charCodeAt(at))) {
    let groupEnd = at;
    while (groupEnd < limit && groupEnd - at < 4 && isHex(text.charCodeAt(groupEnd))) groupEnd += 1;
    if (text.charCodeAt(groupEnd) === DOT) {
      // A dotted quad ends the address (`::ffff:203.0.113.9`); else the dot ends a sentence.
      const quadEnd = dottedQuadEnd(text, at);
      groups += quadEnd === -1 ? 1 : 2;
      consider(quadEnd === -1 ? groupEnd : quadEnd, quadEnd !== -1);
      break;
    }
    groups += 1;
    if (groups > 8) break;
    consider(groupEnd, false);
    if (text.charCodeAt(groupEnd) !== COLON) break;
    if (text.charCodeAt(groupEnd + 1) !== COLON) {
      at = groupEnd + 1;
      continue;
    }
    if (compressed) break;
    compressed = true;
    at = groupEnd + 2;
    consider(at, false);
    // `:::` ends it: the address is what came before the third colon.
    if (text.charCodeAt(at) === COLON) break;
  }
  return best && isIPv6(text.slice(start, best.end)) ? best : undefined;
}

/** The longest IPv6 address (two groups at least) at the start of `text`, as its length; -1 when there is none. */
export function ipv6PrefixLength(text: string): number {
  return ipv6At(text, 0, text.length)?.end ?? -1;
}

/** The end of a dotted quad of octets starting at `start`, or -1. */
function dottedQuadEnd(text: string, start: number): number {
  let at = start;
  for (let part = 0; part < 4; part += 1) {
    if (part > 0) {
      if (text.charCodeAt(at) !== DOT) return -1;
      at += 1;
    }
    const end = digitsEnd(text, at);
    if (end === at || end - at > 3 || Number(text.slice(at, end)) > 255) return -1;
    at = end;
  }
  return at;
}

/** The span of an address found at [start, end): hex glued after it, a zone, a prefix, brackets and a port. */
function ipv6WithSuffixes(text: string, start: number, found: Ipv6Find): AddressSpan {
  let end = found.end;
  if (!found.endsWithQuad) while (isHex(text.charCodeAt(end))) end += 1;
  if (text.charCodeAt(end) === PERCENT && isAlphanumeric(text.charCodeAt(end + 1))) {
    end += 1;
    while (end - found.end < 32 && isAlphanumeric(text.charCodeAt(end))) end += 1;
  }
  end = withSuffix(text, end, SLASH, 3);
  if (text.charCodeAt(start - 1) === OPEN_BRACKET && text.charCodeAt(end) === CLOSE_BRACKET) {
    return { start: start - 1, end: withSuffix(text, end + 1, COLON, 5) };
  }
  return { start, end: found.endsWithQuad ? withSuffix(text, end, COLON, 5) : end };
}

/**
 * IPv6 addresses inside runs of hex digits, colons and dots that hold two colons at least. An
 * address may start in the last four characters of any group (`ad2001:db8::1`) or at a `::`; from
 * each start the longest valid address is taken (checked by node's `isIPv6`).
 */
function ipv6Spans(text: string, spans: AddressSpan[]): void {
  let at = 0;
  while (at < text.length) {
    if (!isIpv6Character(text.charCodeAt(at))) {
      at += 1;
      continue;
    }
    let runEnd = at;
    let colons = 0;
    while (runEnd < text.length && isIpv6Character(text.charCodeAt(runEnd))) {
      if (text.charCodeAt(runEnd) === COLON) colons += 1;
      runEnd += 1;
    }
    if (colons >= 2) ipv6SpansInRun(text, at, runEnd, spans);
    at = runEnd;
  }
}

function ipv6SpansInRun(text: string, runStart: number, runEnd: number, spans: AddressSpan[]): void {
  let at = runStart;
  while (at < runEnd) {
    const code = text.charCodeAt(at);
    let start = -1;
    let next = at + 1;
    if (code === COLON) {
      if (text.charCodeAt(at + 1) === COLON) start = at;
    } else if (isHex(code)) {
      let groupEnd = at;
      while (groupEnd < runEnd && isHex(text.charCodeAt(groupEnd))) groupEnd += 1;
      next = groupEnd;
      if (text.charCodeAt(groupEnd) === COLON) start = Math.max(at, groupEnd - 4);
    }
    // Every start is tried, and overlapping finds are merged: `6:2001:db8::1:2:3:4:5` holds a valid address from
    // its first group and a longer one from its second; both are hidden.
    const found = start === -1 ? undefined : ipv6At(text, start, runEnd);
    if (found) spans.push(ipv6WithSuffixes(text, start, found));
    at = next;
  }
}

/**
 * Every IPv4 or IPv6 address, CIDR range, wildcard pattern (`203.0.113.*`) or address with its port
 * written in `text`, whatever is glued around it, in order and without overlaps. Linear in the
 * length of the text: each start reads a bounded number of characters.
 *
 * Kept as text: version numbers (`1.21.4`), times (`12:30:05`), MAC addresses, hex words, a lone
 * `::` or `::1`, one group and `::` (`std::`), and digits glued to a dotted quad (`1203.0.113.5`
 * is another number). A four-part version (`1.2.3.4`) is an address.
 */
export function addressSpans(text: string): AddressSpan[] {
  const spans: AddressSpan[] = [];
  // Fast path for ordinary text: an address needs three dots or two colons.
  if (!text.includes('.') && !text.includes(':')) return spans;
  ipv4Spans(text, spans);
  ipv6Spans(text, spans);
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start);
  const merged: AddressSpan[] = [spans[0]!];
  for (const span of spans.slice(1)) {
    const last = merged.at(-1)!;
    if (span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
