import { describe, expect, it } from 'vitest';
import { formatOutcome } from '../../../plugin/commands/format.js';
import { findType, listTypes, slugOf } from '../../../plugin/commands/punishment-types.js';
import { formatDuration } from '../../../plugin/messages/duration.js';
import { TYPES } from './helpers/command-deps.js';

describe('formatDuration', () => {
  it.each([
    [-1, 'permanent'],
    [0, '0s'],
    [30 * 60_000, '30m'],
    [6 * 3_600_000, '6h'],
    [7 * 86_400_000, '7d'],
    [36 * 3_600_000, '1d 12h'],
    [86_400_000 + 30 * 60_000, '1d'],
    [90 * 60_000 + 5_000, '1h 30m'],
  ])('%i ms -> %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('leaves out the duration of a kick', () => {
    expect(formatOutcome({ action: 'kick', duration: 0 })).toBe('kick');
    expect(formatOutcome({ action: 'ban', duration: -1 })).toBe('ban, permanent');
  });
});

describe('punishment types', () => {
  it('slugs titles and finds types by ordinal or slug, case-insensitively', () => {
    expect(slugOf(' Chat Abuse ')).toBe('chat-abuse');
    expect(findType('CHAT-ABUSE', TYPES)?.ordinal).toBe(6);
    expect(findType('14', TYPES)?.title).toBe('Cheating');
    expect(findType('7', TYPES)).toBeUndefined();
    expect(findType('chat', TYPES)).toBeUndefined();
  });

  it('lists enabled types in ordinal order', () => {
    expect(listTypes([...TYPES].reverse())).toBe('0 kick, 2 manual-ban, 6 chat-abuse, 14 cheating');
  });
});
