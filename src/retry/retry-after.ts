/** Anything with a case-insensitive `get`, like the fetch `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

const DELAY_SECONDS = /^\s*\d+(\.\d+)?\s*$/;

function secondsToMs(seconds: number): number {
  return Math.ceil(seconds * 1000);
}

function fromDelaySeconds(value: string | null): number | undefined {
  if (value === null || !DELAY_SECONDS.test(value)) return undefined;
  return secondsToMs(Number(value));
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 section 10.2.3). */
function fromRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const seconds = fromDelaySeconds(value);
  if (seconds !== undefined) return seconds;
  // Only a date-like string: Date.parse also accepts bare numbers such as "-5".
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const atMs = Date.parse(value);
  if (Number.isNaN(atMs)) return undefined;
  return Math.max(0, atMs - nowMs);
}

function fromBody(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const seconds = (body as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return undefined;
  return secondsToMs(seconds);
}

/**
 * How long a 429 asks us to wait, in milliseconds, or `undefined` when it does not say.
 * Sources, first valid wins: `Retry-After` (seconds or HTTP date, measured against `nowMs`),
 * `X-Rate-Limit-Retry-After-Seconds` (the hosted panel's header), the body's `retryAfterSeconds`.
 */
export function parseRetryAfterMs(headers: HeaderReader, body: unknown, nowMs: number): number | undefined {
  return (
    fromRetryAfter(headers.get('retry-after'), nowMs) ??
    fromDelaySeconds(headers.get('x-rate-limit-retry-after-seconds')) ??
    fromBody(body)
  );
}
