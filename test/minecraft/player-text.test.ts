import { describe, expect, it } from 'vitest';
import { isAcceptedName, plainPlayerText } from '../../src/minecraft/player-text.js';

describe('plainPlayerText', () => {
  it('keeps & as typed and turns § (which every client reads as a code) into &', () => {
    expect(plainPlayerText('&4&l[Server] §cbye')).toBe('&4&l[Server] &cbye');
  });

  it('removes control characters, line breaks and Unicode separators', () => {
    expect(plainPlayerText('a\nb\r\tc\u0000d\u007fe\u009bf\u2028g')).toBe('abcdefg');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(plainPlayerText('héllo wörld ☺ <3')).toBe('héllo wörld ☺ <3');
  });

  it('accepts real account names and refuses names holding codes or control characters', () => {
    for (const name of ['Steve', 'a_b_9', 'Gamer Tag 1']) expect(isAcceptedName(name)).toBe(true);
    for (const name of ['&4Admin', '§cMod', 'new\nline', 'tab\t']) expect(isAcceptedName(name)).toBe(false);
  });
});
