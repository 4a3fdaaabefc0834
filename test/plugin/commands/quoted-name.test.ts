import { describe, expect, it } from 'vitest';
import { leadingPlayerName } from '../../../plugin/commands/quoted-name.js';

describe('leadingPlayerName', () => {
  it('takes the first word, or the words inside double quotes, and leaves the rest', () => {
    expect(leadingPlayerName(['Steve', 'griefed', 'spawn'])).toEqual({ name: 'Steve', rest: ['griefed', 'spawn'] });
    expect(leadingPlayerName(['"Cool', 'Guy', '42"', 'griefed'])).toEqual({ name: 'Cool Guy 42', rest: ['griefed'] });
    expect(leadingPlayerName(['"Steve"', 'x'])).toEqual({ name: 'Steve', rest: ['x'] });
    expect(leadingPlayerName(['"', 'Cool', 'Guy"'])).toEqual({ name: 'Cool Guy', rest: [] });
  });

  it('has no name for no words, an unclosed quote, or empty quotes', () => {
    expect(leadingPlayerName([])).toBeUndefined();
    expect(leadingPlayerName(['"Cool', 'Guy', 'griefed'])).toBeUndefined();
    expect(leadingPlayerName(['"', 'x'])).toBeUndefined();
    expect(leadingPlayerName(['""', 'x'])).toBeUndefined();
  });
});
