import { describe, expect, it } from 'vitest';
import {
  HIDDEN_ADDRESS,
  redactAddresses,
  redactAddressesIn,
  visitorInput,
} from '../../src/service/panel/redact-addresses.js';

const H = HIDDEN_ADDRESS;

/** Texts as staff write them in reasons, and what a stranger or a role without see-ip reads. */
const HIDDEN: [string, string][] = [
  // Glued to letters and punctuation (the forms of issue 32).
  ['IP:203.0.113.12', `IP:${H}`],
  ['ip:203.0.113.0/24', `ip:${H}`],
  ['addr:2001:db8::12', `addr:${H}`],
  ['e.g.203.0.113.17', `e.g.${H}`],
  ['alt of 203.0.113.7.', `alt of ${H}.`],
  ['(203.0.113.5)', `(${H})`],
  ['"203.0.113.5"', `"${H}"`],
  ['<203.0.113.5>', `<${H}>`],
  ['ip=203.0.113.5;', `ip=${H};`],
  ['x203.0.113.5y', `x${H}y`],
  ['ab203.0.113.5', `ab${H}`],
  ['ping 203.0.113.5ms', `ping ${H}ms`],
  ['user@203.0.113.5', `user@${H}`],
  ['ip_203.0.113.5_alt', `ip_${H}_alt`],
  ['v1.2.203.0.113.5', `v${H}`],
  ['ad2001:db8::1', `ad${H}`],
  ['IPv6 2001:db8:85a3::8a2e:370:7334.', `IPv6 ${H}.`],
  // A group glued before an address may be its first: both readings are hidden.
  ['IPv6:2001:db8:85a3::8a2e:370:7334', `IPv${H}`],
  ['bad:2001:db8::12', H],
  // Ranges, lists and patterns.
  ['range 10.0.0.0/8, ok', `range ${H}, ok`],
  ['2001:db8::1/64', H],
  ['v6 2001:db8::1 and 2001:db8::/32', `v6 ${H} and ${H}`],
  ['203.0.113.5,198.51.100.9', `${H},${H}`],
  ['203.0.113.0-203.0.113.255', `${H}-${H}`],
  ['203.0.113.*', H],
  ['203.0.*.*', H],
  ['203.0.113.5\n2001:db8::5', `${H}\n${H}`],
  // Ports and brackets.
  ['joined from 198.51.100.4:25565', `joined from ${H}`],
  ['198.51.100.4:25565.', `${H}.`],
  ['[2001:db8::1]', H],
  ['[2001:db8::1]:25565', H],
  ['Mapped [::ffff:203.0.113.9]:25565', `Mapped ${H}`],
  ['::ffff:203.0.113.9:25565', H],
  // In URLs.
  ['http://203.0.113.5:8080/ban', `http://${H}/ban`],
  ['https://203.0.113.5/evidence.png', `https://${H}/evidence.png`],
  ['http://[2001:db8::1]:8080/x', `http://${H}/x`],
  // IPv4-mapped, zero-compressed, full, upper-case, zones.
  ['::ffff:203.0.113.9', H],
  ['::FFFF:203.0.113.9', H],
  ['::ffff:cb00:7109', H],
  ['64:ff9b::203.0.113.9', H],
  ['::1.2.3.4', H],
  ['2001:db8::', H],
  ['2001:DB8::ABCD', H],
  ['2001:db8:0:0:0:0:0:1', H],
  ['2001:0db8:0000:0000:0000:ff00:0042:8329', H],
  ['a:b:c:d:e:f:1:2', H],
  ['fe80::1%eth0 is the router', `${H} is the router`],
  ['2001:db8::12345', H],
  // Odd IPv4 spellings.
  ['0.0.0.0', H],
  ['255.255.255.255', H],
  ['010.000.000.001', H],
  ['IP：203.0.113.5', `IP：${H}`],
];

/** Texts that look a little like addresses and must stay as they are. */
const KEPT = [
  'banned at 12:30',
  '12:30:45',
  'at 5:00pm',
  '2026-01-01T12:30:45.123Z',
  'version 1.21.4',
  'flying-squid 1.8.8-1.21.4',
  'see rule 4.2',
  '1.2.3',
  '192.168',
  'score 10.5/20',
  'cafe beef',
  'deadbeef',
  'face:b00c',
  'dead:beef:cafe',
  'Dinnerbone',
  'std::vector',
  'C++ Foo::Bar',
  '::',
  'a :: b',
  '::1',
  'ratio 3:2:1',
  'MAC 00:1a:2b:3c:4d:5e',
  '1203.0.113.5',
  '2130706433',
  '*.*.*.*',
  '203.*.*.*',
  'a.b.c.d',
  'Hello... world: fine',
  'uuid 069a79f4-44e9-4726-a5be-fca90e38aaf5',
  '',
];

describe('redactAddresses', () => {
  it('the corpus holds at least 40 forms of addresses', () => {
    expect(HIDDEN.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HIDDEN)('hides the address in %j', (text, shown) => {
    expect(redactAddresses(text)).toBe(shown);
  });

  it.each(KEPT)('leaves %j as it is', (text) => {
    expect(redactAddresses(text)).toBe(text);
  });

  it('is idempotent: a redacted text has nothing left to hide', () => {
    for (const [text] of HIDDEN) {
      const once = redactAddresses(text);
      expect(redactAddresses(once)).toBe(once);
    }
  });

  it('reads pathological runs to the end: thousands of groups and dots, each address hidden once', () => {
    // Compared as booleans: a failure must not print megabytes.
    const many = Array.from({ length: 2000 }, (_, at) => `10.0.${at % 256}.1`).join(' ');
    expect(redactAddresses(many) === Array.from({ length: 2000 }, () => H).join(' ')).toBe(true);
    const groups = '12345:'.repeat(50_000);
    expect(redactAddresses(groups) === groups).toBe(true);
    const eightGroups = 'a:'.repeat(50_000);
    expect(redactAddresses(eightGroups).startsWith(`${H}:`)).toBe(true);
    expect(redactAddresses(eightGroups).includes('a:')).toBe(false);
    const dots = '1.'.repeat(50_000);
    expect(redactAddresses(dots) === `${H}.`).toBe(true);
  });
});

describe('redactAddressesIn', () => {
  it('copies plain objects and arrays with every string redacted, at any depth, and keeps the rest', () => {
    const can = () => true;
    const when = new Date(0);
    const data = {
      title: 'player 203.0.113.5',
      rows: [{ reason: 'alt of 2001:db8::7', count: 3, nested: { list: ['ip:10.1.2.3'] } }],
      can,
      when,
      none: null,
    };
    const shown = redactAddressesIn(data);
    expect(shown).toEqual({
      title: `player ${H}`,
      rows: [{ reason: `alt of ${H}`, count: 3, nested: { list: [`ip:${H}`] } }],
      can,
      when,
      none: null,
    });
    expect(shown.can).toBe(can);
    expect(shown.when).toBe(when);
    // The original is left as it was.
    expect(data.rows[0]!.reason).toBe('alt of 2001:db8::7');
  });

  it("keeps the visitor's own input as typed, wherever it sits", () => {
    const typed = visitorInput({ reason: 'ban 203.0.113.5' });
    const shown = redactAddressesIn({ values: typed, reason: 'ban 203.0.113.5' });
    expect(shown.values.reason).toBe('ban 203.0.113.5');
    expect(shown.reason).toBe(`ban ${H}`);
  });
});
