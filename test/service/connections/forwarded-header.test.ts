import { describe, expect, it } from 'vitest';
import { parseForwardedLine } from '../../../src/service/connections/forwarded-header.js';

// Issue 32, item 5: the Forwarded header (RFC 7239) a trusted proxy writes the client in.
describe('parseForwardedLine', () => {
  it.each([
    // The examples of RFC 7239, section 4 and 7.
    ['for="_gazonk"', [{ for: '_gazonk' }]],
    ['For="[2001:db8:cafe::17]:4711"', [{ for: '[2001:db8:cafe::17]:4711' }]],
    ['for=192.0.2.60;proto=http;by=203.0.113.43', [{ for: '192.0.2.60', proto: 'http', by: '203.0.113.43' }]],
    ['for=192.0.2.43, for=198.51.100.17', [{ for: '192.0.2.43' }, { for: '198.51.100.17' }]],
    [
      'for=192.0.2.43,for="[2001:db8:cafe::17]",for=unknown',
      [{ for: '192.0.2.43' }, { for: '[2001:db8:cafe::17]' }, { for: 'unknown' }],
    ],
    // Names are case-insensitive, values kept; spaces around pairs and elements are allowed.
    ['FOR=192.0.2.1 ; Proto=HTTPS', [{ for: '192.0.2.1', proto: 'HTTPS' }]],
    // Quoted strings hold commas, semicolons and escapes.
    ['for="a,b;c", for=192.0.2.2', [{ for: 'a,b;c' }, { for: '192.0.2.2' }]],
    ['for="x\\"y"', [{ for: 'x"y' }]],
    // Empty elements and empty pairs are skipped.
    ['for=192.0.2.3,, ,for=192.0.2.4', [{ for: '192.0.2.3' }, { for: '192.0.2.4' }]],
    ['for=192.0.2.5;;proto=https', [{ for: '192.0.2.5', proto: 'https' }]],
  ])('%s', (line, expected) => {
    expect(parseForwardedLine(line)).toEqual(expected);
  });

  it.each([
    ['a pair without a value', 'for', [undefined]],
    ['a name that is not a token', 'f r=192.0.2.1', [undefined]],
    ['a value with a space outside quotes', 'for=192.0.2.1 x', [undefined]],
    ['a repeated parameter', 'for=192.0.2.1;for=192.0.2.2', [undefined]],
    ['a bracketed address outside quotes (the colon is no token character)', 'for=[2001:db8::1]', [undefined]],
    ['a quote in the middle of a value', 'for=ab"c"', [undefined]],
    ['a control character in a quoted string', 'for="a\u0001b"', [undefined]],
  ])('%s is an unreadable element in its place', (_name, line, expected) => {
    expect(parseForwardedLine(line)).toEqual(expected);
  });

  it('a broken element does not spoil its neighbours', () => {
    expect(parseForwardedLine('for=192.0.2.1, for, for=192.0.2.9')).toEqual([
      { for: '192.0.2.1' },
      undefined,
      { for: '192.0.2.9' },
    ]);
  });

  it('a quoted string never closed makes the whole line unreadable', () => {
    expect(parseForwardedLine('for="192.0.2.1, for=192.0.2.9')).toEqual([undefined]);
  });
});
