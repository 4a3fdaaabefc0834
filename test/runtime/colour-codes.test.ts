import { describe, expect, it } from 'vitest';
import { toSectionCodes } from '../../src/hosts/serenity/bedrock-text.js';
import { escapeColourCodes, parseColourCodes, stripColourCodes } from '../../src/runtime/colour-codes.js';

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

  it('shows && as one & (escaped text), in segments, on the console and for Bedrock', () => {
    const escaped = `&c${escapeColourCodes('&4[Server] && rock')}`;
    expect(escaped).toBe('&c&&4[Server] &&&& rock');
    const segments = parseColourCodes(escaped);
    expect(segments.map((segment) => segment.text).join('')).toBe('&4[Server] && rock');
    expect(segments.every((segment) => segment.color === 'red' && Object.keys(segment).length === 2)).toBe(true);
    expect(stripColourCodes(escaped)).toBe('&4[Server] && rock');
    expect(toSectionCodes(escaped)).toBe('§c&4[Server] && rock');
  });
});
