import { describe, expect, it } from 'vitest';
import { parseColourCodes, stripColourCodes } from '../../src/runtime/colour-codes.js';

describe('& colour codes', () => {
  it('splits text into styled segments; a colour resets formatting, &r resets all', () => {
    expect(parseColourCodes('&aGreen &6&lbold gold&r plain')).toEqual([
      { color: 'green', text: 'Green ' },
      { color: 'gold', bold: true, text: 'bold gold' },
      { text: ' plain' },
    ]);
  });

  it('accepts upper case and § codes, and keeps a lone & literal', () => {
    expect(parseColourCodes('&CRed §nline & more')).toEqual([
      { color: 'red', text: 'Red ' },
      { color: 'red', underlined: true, text: 'line & more' },
    ]);
  });

  it('returns nothing for empty text and strips codes for the console', () => {
    expect(parseColourCodes('')).toEqual([]);
    expect(stripColourCodes('&c&lBanned&r: rule 1 & 2')).toBe('Banned: rule 1 & 2');
  });
});
