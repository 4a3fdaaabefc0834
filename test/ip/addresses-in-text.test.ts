import { isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv6PrefixLength } from '../../src/ip/addresses-in-text.js';

/** Hex groups of the corpus' two-group rule: `::1` and `d::` name no machine and stay as text. */
const groupsOf = (address: string) => {
  const lastColon = address.lastIndexOf(':');
  const quad = address.slice(lastColon + 1).includes('.');
  const head = quad ? address.slice(0, lastColon + 1) : address;
  return head.split(':').filter((group) => group !== '').length + (quad ? 2 : 0);
};

// Texts made of what IPv6 addresses are made of, so valid ones come up often.
const piece = fc.constantFrom(
  '0',
  '1',
  'a',
  'F',
  'ff',
  'db8',
  '2001',
  'ffff',
  '12345',
  ':',
  '::',
  ':::',
  '.',
  '203',
  '0.',
  '9.',
);
const text = fc.array(piece, { maxLength: 18 }).map((pieces) => pieces.join(''));

describe('the IPv6 walk of the address scanner', () => {
  it("agrees with node's isIPv6: what it finds is an address, and no longer prefix is one", () => {
    fc.assert(
      fc.property(text, (candidate) => {
        const found = ipv6PrefixLength(candidate);
        if (found !== -1) expect(isIPv6(candidate.slice(0, found))).toBe(true);
        for (let end = candidate.length; end > Math.max(found, 0); end -= 1) {
          const prefix = candidate.slice(0, end);
          // No longer valid prefix is missed, unless hex digits are glued to it: a group of five digits, or a
          // dotted quad's last part of four (`::9.0.9.2001`), is not an address but another number.
          if (isIPv6(prefix) && groupsOf(prefix) >= 2 && end <= 45) {
            expect(/[0-9a-fA-F]/.test(candidate[end] ?? ''), `${prefix} is missed`).toBe(true);
          }
        }
      }),
      { numRuns: 20_000, seed: 1202612 },
    );
  });

  it.each([
    ['2001:db8::1', 11],
    ['::ffff:203.0.113.9', 18],
    ['1:2:3:4:5:6:7:8:9', 15],
    ['::1', -1],
    [':::1', -1],
    ['1:::2', -1],
    ['1::2::3', 4],
    ['12:30:45', -1],
  ])('%s: %i', (candidate, length) => {
    expect(ipv6PrefixLength(candidate)).toBe(length);
  });
});
