import { describe, expect, it } from 'vitest';
import { limitsFromGrants } from '../../src/service/staff/grant-limits.js';
import { refusalOf } from '../../src/service/staff/issue-limits.js';
import { limitText, parseLimitText } from '../../src/service/staff/limit-text.js';

const HOUR_MS = 3_600_000;

describe('limits from in-game permissions', () => {
  it('takes the most generous node of each kind; none, permanent or unlimited is no limit', () => {
    const limits = limitsFromGrants(['bailiff.limit.ban.12h', 'bailiff.limit.ban.2d', 'bailiff.limit.hourly.3']);
    expect(limits).toMatchObject({ banMaxMs: 48 * HOUR_MS, muteMaxMs: null, hourlyMax: 3 });
    expect(limits.names).toEqual({ ban: 'bailiff.limit.ban.2d', hourly: 'bailiff.limit.hourly.3' });
    expect(limitsFromGrants(['bailiff.limit.ban.1d', 'bailiff.limit.ban.permanent']).banMaxMs).toBeNull();
    expect(limitsFromGrants(['bailiff.limit.hourly.3', 'bailiff.limit.hourly.unlimited']).hourlyMax).toBeNull();
  });

  it('refuses only beyond the limit, permanent being beyond any', () => {
    const limits = limitsFromGrants(['bailiff.limit.mute.1h', 'bailiff.limit.hourly.2']);
    expect(refusalOf(limits, { action: 'mute', durationMs: HOUR_MS, issuedLastHour: 1 })).toBeUndefined();
    expect(refusalOf(limits, { action: 'mute', durationMs: -1, issuedLastHour: 0 })).toBe(
      'the longest mute your in-game permissions may issue is 1h (bailiff.limit.mute.1h); this one is permanent',
    );
    expect(refusalOf(limits, { action: 'ban', durationMs: -1, issuedLastHour: 0 })).toBeUndefined();
    expect(refusalOf(limits, { action: 'other', durationMs: 0, issuedLastHour: 2 })).toBe(
      'your in-game permissions may issue at most 2 punishment(s) an hour (bailiff.limit.hourly.2); 2 were issued in the last hour',
    );
  });

  it('names lengths by the largest unit up to days', () => {
    expect([limitText(-1), limitText(7 * 24 * HOUR_MS), limitText(90 * 60_000), limitText(1500)]).toEqual([
      'permanent',
      '7d',
      '90m',
      '2s',
    ]);
    expect([parseLimitText('2w'), parseLimitText('30m'), parseLimitText('7'), parseLimitText('1y')]).toEqual([
      14 * 24 * HOUR_MS,
      30 * 60_000,
      undefined,
      undefined,
    ]);
  });
});
