import { describe, expect, it } from 'vitest';
import { parseDurationText } from '../../src/service/panel/duration-text.js';
import { lengthText } from '../../src/service/panel/punishment-view.js';

describe('lengths typed in the panel', () => {
  it.each([
    ['', undefined],
    ['  ', undefined],
    ['permanent', -1],
    ['PERM', -1],
    ['30m', 1_800_000],
    ['12h', 43_200_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
    ['1d 12h', 129_600_000],
    ['45s', 45_000],
  ])('%j is %s ms', (text, expected) => {
    expect(parseDurationText(text)).toBe(expected);
  });

  it.each(['forever', '7', 'd7', '1.5d', '-1d', '1d 1d 1d 1d 1d 1d', '9999999d'])('refuses %j, naming it', (text) => {
    expect(() => parseDurationText(text)).toThrow(RangeError);
    expect(() => parseDurationText(text)).toThrow(/like 30m, 12h, 7d/);
  });

  it('refuses a length past 1000 years, the longest a punishment may last (issue 32, item 10)', () => {
    expect(parseDurationText('52142w')).toBe(52_142 * 604_800_000);
    expect(() => parseDurationText('999999w 999999w')).toThrow(
      "'999999w 999999w' is longer than 1000 years, the longest length: use permanent",
    );
  });
});

describe('lengths shown in the panel', () => {
  it.each([
    [-1, 'permanent'],
    [0, '-'],
    [500, '<1s'],
    [90_000, '1m 30s'],
    [129_600_000, '1d 12h'],
    [129_660_000, '1d 12h'],
  ])('%s ms is %j', (ms, text) => {
    expect(lengthText(ms)).toBe(text);
  });
});
