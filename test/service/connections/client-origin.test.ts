import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  type ClientOrigin,
  clientOrigin,
  hopAddress,
  type ProxyHeader,
  parseTrustedProxies,
} from '../../../src/service/connections/client-origin.js';

// Issue 32, item 5: forwarding headers are believed only from trusted proxies, read from the right.
const PROXY = '10.0.0.5';

/** A request as node hands it over: the peer's address and the header lines as sent. */
function request(peer: string, headers: Array<[string, string]>): IncomingMessage {
  return { socket: { remoteAddress: peer }, rawHeaders: headers.flat() } as unknown as IncomingMessage;
}

function originOf(
  peer: string,
  headers: Array<[string, string]>,
  trusted: string[] = ['10.0.0.0/8'],
  header: ProxyHeader = 'x-forwarded-for',
): ClientOrigin {
  return clientOrigin(request(peer, headers), { proxies: parseTrustedProxies(trusted), header });
}

describe('clientOrigin with X-Forwarded-For', () => {
  it('without trusted proxies the peer is the client, whatever the headers say', () => {
    const forged = request('203.0.113.7', [
      ['X-Forwarded-For', '198.51.100.1'],
      ['X-Forwarded-Proto', 'https'],
    ]);
    expect(clientOrigin(forged, undefined)).toEqual({ address: '203.0.113.7' });
  });

  it('a peer that is not a trusted proxy is the client: its headers are not read', () => {
    expect(originOf('203.0.113.7', [['X-Forwarded-For', '198.51.100.1']])).toEqual({ address: '203.0.113.7' });
  });

  it('from a trusted proxy, the address it wrote is the client', () => {
    expect(originOf(PROXY, [['X-Forwarded-For', '198.51.100.1']])).toEqual({ address: '198.51.100.1' });
  });

  it('the right-most address that is not a trusted proxy wins: what the client wrote itself is never read', () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the address it saw.
    expect(originOf(PROXY, [['X-Forwarded-For', '1.2.3.4, 198.51.100.1']])).toEqual({ address: '198.51.100.1' });
    // Two proxies of ours, the outer one at 10.0.0.9: the client is what the outer one saw.
    expect(originOf(PROXY, [['X-Forwarded-For', '1.2.3.4, 198.51.100.1, 10.0.0.9']])).toEqual({
      address: '198.51.100.1',
    });
  });

  it('repeated header lines are read in order, as one list', () => {
    const headers: Array<[string, string]> = [
      ['X-Forwarded-For', '1.2.3.4'],
      ['x-forwarded-for', '198.51.100.2'],
    ];
    expect(originOf(PROXY, headers)).toEqual({ address: '198.51.100.2' });
  });

  it('an unreadable hop stops the walk at the last address known', () => {
    expect(originOf(PROXY, [['X-Forwarded-For', 'unknown']])).toEqual({ address: PROXY });
    expect(originOf(PROXY, [['X-Forwarded-For', '198.51.100.1, garbage, 10.0.0.9']])).toEqual({ address: '10.0.0.9' });
  });

  it('a trusted proxy without a header is itself the client', () => {
    expect(originOf(PROXY, [])).toEqual({ address: PROXY });
  });

  it('every hop trusted: the furthest one is the client', () => {
    expect(originOf(PROXY, [['X-Forwarded-For', '10.1.1.1, 10.2.2.2']])).toEqual({ address: '10.1.1.1' });
  });

  it('IPv6 and IPv4-mapped peers and hops are matched against the ranges', () => {
    expect(originOf('::ffff:10.0.0.5', [['X-Forwarded-For', '2001:db8::17']])).toEqual({ address: '2001:db8::17' });
    expect(originOf('fd00::1', [['X-Forwarded-For', '198.51.100.1']], ['fd00::/8'])).toEqual({
      address: '198.51.100.1',
    });
  });

  it('X-Forwarded-Proto of a trusted proxy gives the protocol: its last entry, http or https only', () => {
    expect(
      originOf(PROXY, [
        ['X-Forwarded-For', '198.51.100.1'],
        ['X-Forwarded-Proto', 'HTTPS'],
      ]),
    ).toEqual({ address: '198.51.100.1', protocol: 'https' });
    expect(originOf(PROXY, [['X-Forwarded-Proto', 'https, http']])).toEqual({ address: PROXY, protocol: 'http' });
    expect(originOf(PROXY, [['X-Forwarded-Proto', 'gopher']])).toEqual({ address: PROXY });
  });

  it('the Forwarded header is not read when the proxies write X-Forwarded-For', () => {
    expect(originOf(PROXY, [['Forwarded', 'for=198.51.100.1;proto=https']])).toEqual({ address: PROXY });
  });
});

describe('clientOrigin with Forwarded', () => {
  const forwarded = (peer: string, lines: string[], trusted?: string[]) =>
    originOf(
      peer,
      lines.map((line): [string, string] => ['Forwarded', line]),
      trusted,
      'forwarded',
    );

  it('reads for= from the right and proto= of the nearest proxy', () => {
    expect(forwarded(PROXY, ['for=1.2.3.4, for="[2001:db8:cafe::17]:4711";proto=https'])).toEqual({
      address: '2001:db8:cafe::17',
      protocol: 'https',
    });
    expect(forwarded(PROXY, ['for=198.51.100.1, for=10.0.0.9'])).toEqual({ address: '198.51.100.1' });
  });

  it('ignores X-Forwarded-For, which the proxies do not write and a client could', () => {
    expect(
      originOf(
        PROXY,
        [
          ['X-Forwarded-For', '1.2.3.4'],
          ['Forwarded', 'for=198.51.100.1'],
        ],
        undefined,
        'forwarded',
      ),
    ).toEqual({ address: '198.51.100.1' });
  });

  it('a broken line written by the client does not hide the line the proxy added', () => {
    expect(forwarded(PROXY, ['for="1.2.3.4', 'for=198.51.100.1'])).toEqual({ address: '198.51.100.1' });
  });

  it('an obfuscated or unknown hop, or an element without for=, stops at the last address known', () => {
    expect(forwarded(PROXY, ['for=_hidden'])).toEqual({ address: PROXY });
    expect(forwarded(PROXY, ['for=198.51.100.1, proto=https'])).toEqual({ address: PROXY, protocol: 'https' });
  });
});

describe('hopAddress', () => {
  it.each([
    ['192.0.2.43', '192.0.2.43'],
    [' 192.0.2.43:47011 ', '192.0.2.43'],
    ['[2001:db8:cafe::17]:4711', '2001:db8:cafe::17'],
    ['[2001:DB8:cafe:0::17]', '2001:db8:cafe::17'],
    ['2001:db8::17', '2001:db8::17'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
  ])('%s is %s', (text, address) => {
    expect(hopAddress(text)).toBe(address);
  });

  it.each([
    'unknown',
    '_gazonk',
    '',
    '192.0.2.300',
    '[2001:db8::1',
    '[2001:db8::1]x',
    'fe80::1%eth0',
    '192.0.2.1:port',
  ])('%j is no address', (text) => {
    expect(hopAddress(text)).toBeUndefined();
  });
});

describe('parseTrustedProxies', () => {
  it('reads addresses and ranges, and names an entry that is neither', () => {
    expect(parseTrustedProxies(['10.0.0.0/8', '::1']).map((range) => range.text)).toEqual(['10.0.0.0/8', '::1']);
    expect(() => parseTrustedProxies(['10.0.0.0/8', 'my-proxy'], '--trust-proxy')).toThrow(
      "--trust-proxy: 'my-proxy' must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24",
    );
  });
});
