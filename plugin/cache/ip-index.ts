import { addressWords, type IpRange, ipv4Text, ipv4ToInt, maskOf, rangeOf } from '../../src/ip/ip-range.js';
import { RunningUntil } from './running-until.js';

// Signed masks: keys are int32 so V8 keeps them as small integers, not heap numbers.
const V4_MASKS = Array.from({ length: 33 }, (_, prefix) => maskOf(prefix) | 0);
const MAPPED_V4 = /^::ffff:/i;

/** An IPv6 address's words with the bits past `prefix` cleared, as a key. */
function v6Key(words: readonly number[], prefix: number): string {
  let key = '';
  for (let at = 0; at < 4; at += 1) key += `${(words[at]! & maskOf(prefix - at * 32)) >>> 0}:`;
  return key;
}

/**
 * Until when each banned address and CIDR range is banned, in memory, for the join decision. One
 * table per prefix length in use; a lookup probes only those, most specific first. An IPv4 address
 * is parsed without allocating and each probe is one Map read, so an unbanned join costs a few
 * tens of nanoseconds. IPv6 is parsed only while an IPv6 address or range is banned.
 */
export class IpIndex {
  readonly #v4 = new Map<number, RunningUntil<number>>();
  #v4Prefixes: number[] = [];
  readonly #v6 = new Map<number, RunningUntil<string>>();
  #v6Prefixes: number[] = [];

  /** Addresses and ranges indexed. */
  get size(): number {
    let size = 0;
    for (const table of this.#v4.values()) size += table.size;
    for (const table of this.#v6.values()) size += table.size;
    return size;
  }

  /** Keeps the later of the stored end and `untilMs`. */
  extend(range: IpRange, untilMs: number): void {
    const current = this.#untilMs(range);
    if (current === undefined || untilMs > current) this.replace(range, untilMs);
  }

  /** Replaces what is known of one address or range; undefined: nothing bans it. */
  replace(range: IpRange, untilMs: number | undefined): void {
    if (range.version === 4) {
      if (update(this.#v4, range.prefix, range.words[0]! | 0, untilMs)) this.#v4Prefixes = longestFirst(this.#v4);
    } else if (update(this.#v6, range.prefix, v6Key(range.words, range.prefix), untilMs)) {
      this.#v6Prefixes = longestFirst(this.#v6);
    }
  }

  /** The canonical text of the most specific address or range holding `ip` banned at `now`. */
  match(ip: string, now: number): string | undefined {
    const v4 = ipv4ToInt(ip);
    if (!Number.isNaN(v4)) return this.#matchV4(v4, now);
    // Only an IPv4-mapped address can match an IPv4 ban: without IPv6 bans, nothing else is parsed.
    if (this.#v6Prefixes.length === 0 && !MAPPED_V4.test(ip)) return undefined;
    const address = ip.includes(':') ? addressWords(ip) : undefined;
    if (!address) return undefined;
    if (address.version === 4) return this.#matchV4(address.words[0]! | 0, now);
    for (const prefix of this.#v6Prefixes) {
      if (this.#v6.get(prefix)!.isRunning(v6Key(address.words, prefix), now)) {
        return rangeOf(6, address.words, prefix).text;
      }
    }
    return undefined;
  }

  clear(): void {
    this.#v4.clear();
    this.#v6.clear();
    this.#v4Prefixes = [];
    this.#v6Prefixes = [];
  }

  #matchV4(address: number, now: number): string | undefined {
    for (const prefix of this.#v4Prefixes) {
      const key = address & V4_MASKS[prefix]!;
      if (this.#v4.get(prefix)!.isRunning(key, now)) {
        return prefix === 32 ? ipv4Text(key) : `${ipv4Text(key)}/${prefix}`;
      }
    }
    return undefined;
  }

  #untilMs(range: IpRange): number | undefined {
    if (range.version === 4) return this.#v4.get(range.prefix)?.untilMs(range.words[0]! | 0);
    return this.#v6.get(range.prefix)?.untilMs(v6Key(range.words, range.prefix));
  }
}

const longestFirst = (tables: Map<number, unknown>) => [...tables.keys()].sort((a, b) => b - a);

/** Sets or deletes one key in the table of its prefix; true when a table was added or removed. */
function update<K>(tables: Map<number, RunningUntil<K>>, prefix: number, key: K, untilMs: number | undefined) {
  const table = tables.get(prefix);
  if (untilMs === undefined) {
    table?.delete(key);
    if (!table || table.size > 0) return false;
    tables.delete(prefix);
    return true;
  }
  if (table) {
    table.set(key, untilMs);
    return false;
  }
  const created = new RunningUntil<K>();
  created.set(key, untilMs);
  tables.set(prefix, created);
  return true;
}
