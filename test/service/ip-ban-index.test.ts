import { describe, expect, it } from 'vitest';
import { type IpRange, parseIpAddress, parseIpRange, rangeContains } from '../../src/ip/ip-range.js';
import { ipBanKey, ipBanKeysHolding } from '../../src/service/store/ip-ban-keys.js';

const RANGES = [
  '203.0.113.7',
  '203.0.113.0/24',
  '203.0.0.0/16',
  '0.0.0.0/0',
  '198.51.100.128/25',
  '2001:db8::1',
  '2001:db8::/32',
  '2001:db8:0:1::/64',
  '::/0',
  '::ffff:192.0.2.0/120',
].map((text) => parseIpRange(text)!);

const ADDRESSES = [
  '203.0.113.7',
  '203.0.113.8',
  '203.0.114.1',
  '198.51.100.200',
  '198.51.100.5',
  '192.0.2.44',
  '2001:db8::1',
  '2001:db8:0:1::99',
  '2001:db9::1',
  '::ffff:203.0.113.7',
].map((text) => parseIpAddress(text)!);

const holds = (range: IpRange, address: IpRange) => ipBanKeysHolding(address).includes(ipBanKey(range));

describe('IP ban prefix keys', () => {
  it('an address has a key of a range exactly when the range holds it', () => {
    for (const range of RANGES) {
      for (const address of ADDRESSES) {
        expect({ range: range.text, address: address.text, held: holds(range, address) }).toEqual({
          range: range.text,
          address: address.text,
          held: rangeContains(range, address),
        });
      }
    }
  });

  it('an address has one key per prefix length: 33 for IPv4, 129 for IPv6', () => {
    expect(new Set(ipBanKeysHolding(parseIpAddress('203.0.113.7')!)).size).toBe(33);
    expect(new Set(ipBanKeysHolding(parseIpAddress('2001:db8::1')!)).size).toBe(129);
  });

  it('the same range written two ways has one key', () => {
    expect(ipBanKey(parseIpRange('203.0.113.77/24')!)).toBe(ipBanKey(parseIpRange('203.0.113.0/24')!));
    expect(ipBanKey(parseIpRange('::ffff:203.0.113.7')!)).toBe(ipBanKey(parseIpRange('203.0.113.7')!));
  });
});
