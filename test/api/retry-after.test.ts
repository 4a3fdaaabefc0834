import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from '../../src/retry/retry-after.js';

const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 0);
const headers = (values: Record<string, string>) => new Headers(values);

describe('parseRetryAfterMs', () => {
  it('reads Retry-After as seconds, fractional seconds rounded up to a millisecond', () => {
    expect(parseRetryAfterMs(headers({ 'Retry-After': '120' }), undefined, NOW_MS)).toBe(120_000);
    expect(parseRetryAfterMs(headers({ 'Retry-After': '0' }), undefined, NOW_MS)).toBe(0);
    expect(parseRetryAfterMs(headers({ 'Retry-After': '1.5' }), undefined, NOW_MS)).toBe(1500);
  });

  it('reads Retry-After as an HTTP date against the given now, never below zero', () => {
    const inAMinute = new Date(NOW_MS + 60_000).toUTCString();
    const past = new Date(NOW_MS - 60_000).toUTCString();
    expect(parseRetryAfterMs(headers({ 'Retry-After': inAMinute }), undefined, NOW_MS)).toBe(60_000);
    expect(parseRetryAfterMs(headers({ 'Retry-After': past }), undefined, NOW_MS)).toBe(0);
  });

  it('reads X-Rate-Limit-Retry-After-Seconds and the body retryAfterSeconds', () => {
    expect(parseRetryAfterMs(headers({ 'X-Rate-Limit-Retry-After-Seconds': '9' }), undefined, NOW_MS)).toBe(9000);
    expect(parseRetryAfterMs(headers({}), { retryAfterSeconds: 4 }, NOW_MS)).toBe(4000);
  });

  it('takes the first valid source in order: Retry-After, X-Rate-Limit header, body', () => {
    const all = headers({ 'Retry-After': '1', 'X-Rate-Limit-Retry-After-Seconds': '2' });
    expect(parseRetryAfterMs(all, { retryAfterSeconds: 3 }, NOW_MS)).toBe(1000);
    const noStandard = headers({ 'X-Rate-Limit-Retry-After-Seconds': '2' });
    expect(parseRetryAfterMs(noStandard, { retryAfterSeconds: 3 }, NOW_MS)).toBe(2000);
  });

  it('skips invalid values and falls through to the next source', () => {
    const bad = headers({ 'Retry-After': 'soon', 'X-Rate-Limit-Retry-After-Seconds': '-4' });
    expect(parseRetryAfterMs(bad, { retryAfterSeconds: 5 }, NOW_MS)).toBe(5000);
    expect(parseRetryAfterMs(headers({ 'Retry-After': '-5' }), undefined, NOW_MS)).toBeUndefined();
  });

  it('answers undefined when nothing says how long to wait', () => {
    expect(parseRetryAfterMs(headers({}), undefined, NOW_MS)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}), 'text body', NOW_MS)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}), { retryAfterSeconds: -1 }, NOW_MS)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}), { retryAfterSeconds: '5' }, NOW_MS)).toBeUndefined();
  });
});
