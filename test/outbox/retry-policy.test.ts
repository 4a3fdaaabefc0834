import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTBOX_SETTINGS, OutboxSettingsError, resolveSettings } from '../../src/outbox/index.js';
import { decide } from '../../src/outbox/retry-policy.js';
import { fullJitterDelayMs } from '../../src/retry/backoff.js';
import { apiErrors } from './helpers/fake-client.js';

const settings = resolveSettings();
const context = { attempts: 0, ageMs: 0, settings, random: () => 0.5 };

describe('retry policy', () => {
  it('maps each kind of failure to its branch', () => {
    const rows = [
      [apiErrors.rateLimited(5000), 'retry', 'rate-limited'],
      [apiErrors.http(503), 'retry', 'transient'],
      [apiErrors.http(503, 'the database cannot be reached', 'acknowledgePunishment', 5000), 'retry', 'unavailable'],
      [apiErrors.http(500, 'boom', 'acknowledgePunishment', 5000), 'retry', 'transient'],
      [apiErrors.network(), 'retry', 'transient'],
      [apiErrors.timeout(), 'retry', 'transient'],
      [apiErrors.http(400), 'dead', 'rejected'],
      [apiErrors.http(403), 'dead', 'rejected'],
      [apiErrors.http(404), 'dead', 'rejected'],
      [apiErrors.http(413), 'dead', 'rejected'],
      [apiErrors.invalidRequest(), 'dead', 'rejected'],
      [apiErrors.http(401), 'retry', 'key-rejected'],
      [apiErrors.http(404, 'no route', 'registerPlayer'), 'skipped', 'extension-missing'],
      [apiErrors.http(404, 'no route', 'pardonPunishment'), 'skipped', 'extension-missing'],
      [apiErrors.invalidResponse(), 'sent', 'accepted-unexpected-body'],
      [new Error('bug'), 'retry', 'unexpected'],
    ] as const;
    for (const [error, action, rule] of rows) {
      expect(decide({ ...context, error }), rule).toMatchObject({ action, rule });
    }
  });

  it('waits exactly the advertised time after a 429, without spending an attempt, and pauses everything', () => {
    expect(decide({ ...context, attempts: 3, error: apiErrors.rateLimited(4200) })).toEqual({
      action: 'retry',
      rule: 'rate-limited',
      delayMs: 4200,
      attempts: 3,
      pausesDrain: true,
    });
    expect(decide({ ...context, error: apiErrors.rateLimited() })).toMatchObject({ delayMs: 30_000 });
  });

  it('after a 503 that says when to come back, waits at least that long (capped), spends an attempt and pauses everything', () => {
    const unavailable = (retryAfterMs: number) =>
      apiErrors.http(503, 'the database cannot be reached', 'acknowledgePunishment', retryAfterMs);
    expect(decide({ ...context, attempts: 1, random: () => 0, error: unavailable(7000) })).toEqual({
      action: 'retry',
      rule: 'unavailable',
      delayMs: 7000,
      attempts: 2,
      pausesDrain: true,
    });
    // The backoff wins when it is longer than the advertised wait.
    const backedOff = decide({ ...context, attempts: 8, random: () => 0.999, error: unavailable(1000) });
    expect(backedOff).toMatchObject({ rule: 'unavailable', attempts: 9 });
    expect((backedOff as { delayMs: number }).delayMs).toBeGreaterThan(100_000);
    // A wait beyond the cap is cut to it.
    expect(decide({ ...context, random: () => 0, error: unavailable(3_600_000) })).toMatchObject({
      delayMs: settings.maxDelayMs,
    });
  });

  it('keeps a row the service refused for a rejected key: no attempt spent, the drain waits for the gate', () => {
    expect(
      decide({ ...context, attempts: 2, error: apiErrors.http(401, 'bad key', 'acknowledgePunishment', 5000) }),
    ).toEqual({
      action: 'retry',
      rule: 'key-rejected',
      delayMs: 5000,
      attempts: 2,
      pausesDrain: true,
    });
  });

  it('backs off exponentially with full jitter up to the cap', () => {
    const limits = { baseDelayMs: 1000, maxDelayMs: 300_000 };
    const ceilings = [1, 2, 3, 4, 5, 8, 9, 10, 30].map((attempt) =>
      fullJitterDelayMs(attempt, limits, () => 0.999_999),
    );
    expect(ceilings).toEqual([999, 1999, 3999, 7999, 15_999, 127_999, 255_999, 299_999, 299_999]);
    expect(fullJitterDelayMs(6, limits, () => 0)).toBe(0);
    expect(fullJitterDelayMs(6, limits, () => 0.25)).toBe(8000);
  });

  it('dead-letters once the attempt or age limit is reached', () => {
    const limited = resolveSettings({ maxAttempts: 3 });
    expect(decide({ ...context, settings: limited, attempts: 2, error: apiErrors.http(500) })).toMatchObject({
      action: 'dead',
      reason: 'gave up after 3 attempts: 500 nope',
    });
    expect(decide({ ...context, ageMs: settings.maxAgeMs, error: apiErrors.network() })).toMatchObject({
      action: 'dead',
      reason: 'gave up after 168 h of retries: network connection reset',
    });
  });

  it('names the setting, the expectation and the value for a bad setting', () => {
    expect(() => resolveSettings({ concurrency: 0 })).toThrow(
      new OutboxSettingsError('concurrency', 'an integer >= 1', 0),
    );
    expect(() => resolveSettings({ maxAttempts: 1.5 })).toThrow(/"maxAttempts": expected an integer >= 1 or null/);
    expect(() => resolveSettings({ maxDelayMs: 10, baseDelayMs: 100 })).toThrow(
      /"maxDelayMs": expected a value >= baseDelayMs/,
    );
    expect(() => resolveSettings({ bogus: 1 } as never)).toThrow(/"bogus"/);
    expect(resolveSettings({})).toEqual(DEFAULT_OUTBOX_SETTINGS);
  });
});
