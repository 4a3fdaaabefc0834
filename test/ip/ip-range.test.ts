import { describe, expect, it } from 'vitest';
import {
  addressWords,
  ipv4ToInt,
  parseIpAddress,
  parseIpRange,
  rangeContains,
  rangeOf,
} from '../../src/ip/ip-range.js';

describe('parseIpRange', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7', 4, 32],
    [' 203.0.113.7 ', '203.0.113.7', 4, 32],
    ['203.0.113.77/24', '203.0.113.0/24', 4, 24],
    ['10.1.2.3/0', '0.0.0.0/0', 4, 0],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1', 6, 128],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1', 6, 128],
    ['2001:db8::1/32', '2001:db8::/32', 6, 32],
    ['::', '::', 6, 128],
    ['::1', '::1', 6, 128],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3', 6, 128],
    ['::ffff:198.51.100.4', '198.51.100.4', 4, 32],
    ['::ffff:198.51.100.4/120', '198.51.100.0/24', 4, 24],
    ['64:ff9b::1.2.3.4', '64:ff9b::102:304', 6, 128],
  ])('reads %j as %s (IPv%i, /%i)', (input, text, version, prefix) => {
    expect(parseIpRange(input)).toMatchObject({ text, version, prefix });
  });

  it.each([
    '',
    'localhost',
    '1.2.3',
    '1.2.3.256',
    '1.2.3.4/33',
    '1.2.3.4/',
    '1.2.3.4/x',
    '::1/129',
    'fe80::1%eth0',
    'a:b',
  ])('refuses %j', (input) => {
    expect(parseIpRange(input)).toBeUndefined();
  });

  it('tells an address from a range', () => {
    expect(parseIpAddress('203.0.113.7')?.text).toBe('203.0.113.7');
    expect(parseIpAddress('203.0.113.7/32')).toBeUndefined();
  });
});

describe('rangeContains, rangeOf, addressWords', () => {
  const range = (text: string) => parseIpRange(text)!;
  it('holds the addresses of its prefix only, of its own version', () => {
    expect(rangeContains(range('198.51.100.0/24'), range('198.51.100.255'))).toBe(true);
    expect(rangeContains(range('198.51.100.0/24'), range('198.51.101.0'))).toBe(false);
    expect(rangeContains(range('0.0.0.0/0'), range('8.8.8.8'))).toBe(true);
    expect(rangeContains(range('2001:db8::/32'), range('2001:db8:ffff::1'))).toBe(true);
    expect(rangeContains(range('2001:db8::/33'), range('2001:db8:8000::1'))).toBe(false);
    expect(rangeContains(range('::/0'), range('8.8.8.8'))).toBe(false);
    expect(rangeContains(range('198.51.100.7'), range('198.51.100.0/24'))).toBe(false);
  });

  it('builds the range of a prefix around words, and reads words without the canonical text', () => {
    expect(rangeOf(6, range('2001:db8:1:2::5').words, 48).text).toBe('2001:db8:1::/48');
    expect(rangeOf(4, range('10.1.2.3').words, 8).text).toBe('10.0.0.0/8');
    expect(addressWords('::ffff:10.1.2.3')).toEqual({ version: 4, words: [0x0a010203] });
    expect(addressWords('2001:db8::1')).toEqual({ version: 6, words: [0x20010db8, 0, 0, 1] });
    expect(addressWords('10.0.0.0/8')).toBeUndefined();
  });
});

describe('ipv4ToInt', () => {
  it('reads dotted quads as signed 32-bit integers and anything else as NaN', () => {
    expect(ipv4ToInt('0.0.0.1')).toBe(1);
    expect(ipv4ToInt('255.255.255.255')).toBe(-1);
    expect(ipv4ToInt('128.0.0.0')).toBe(-2147483648);
    for (const bad of ['', '1.2.3', '1.2.3.4.5', '1..2.3', '256.1.1.1', '1.2.3.4 ', '::1', '1.2.3.0004']) {
      expect(ipv4ToInt(bad)).toBeNaN();
    }
  });
});
