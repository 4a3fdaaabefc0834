import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RetryChannel } from './fault-plan.js';

/** An answer the proxy gives itself, in the reference service's error-body shape. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function errorAnswer(status: number, message: string, extra: Record<string, unknown> = {}): Answer {
  const body = { status, success: false, error: STATUS_CODES[status] ?? 'Error', message, ...extra };
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** A 429 and the window it opens: until `closesAtMs` (an HTTP date has whole seconds: the next one at or after the wait). */
export interface RateLimitAnswer extends Answer {
  closesAtMs: number;
}

/** A 429 sent at `nowMs` whose wait is given in `channel` (and nowhere else, but for `header-and-body`). */
export function rateLimitAnswer(channel: RetryChannel, waitSeconds: number, nowMs: number): RateLimitAnswer {
  const message = 'rate limit exceeded';
  const closesAtMs = nowMs + waitSeconds * 1000;
  if (channel === 'body') return { ...errorAnswer(429, message, { retryAfterSeconds: waitSeconds }), closesAtMs };
  if (channel === 'http-date') {
    const dateMs = Math.ceil(closesAtMs / 1000) * 1000;
    const answer = errorAnswer(429, message);
    return {
      ...answer,
      headers: { ...answer.headers, 'retry-after': new Date(dateMs).toUTCString() },
      closesAtMs: dateMs,
    };
  }
  const answer =
    channel === 'header-and-body'
      ? errorAnswer(429, message, { retryAfterSeconds: waitSeconds })
      : errorAnswer(429, message);
  const header = channel === 'x-rate-limit' ? 'x-rate-limit-retry-after-seconds' : 'retry-after';
  return { ...answer, headers: { ...answer.headers, [header]: String(waitSeconds) }, closesAtMs };
}

export function sendAnswer(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

/** The same answer on a socket whose request asked for an upgrade; the connection is closed after it. */
export function writeRawAnswer(socket: Duplex, answer: Answer): void {
  const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  const statusLine = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`;
  socket.end(`${[statusLine, ...lines].join('\r\n')}\r\n\r\n${answer.body}`);
}

/**
 * The wait a 429 received at `nowMs` advertises, in seconds: `Retry-After` (seconds, or an HTTP
 * date counted from `nowMs`), then `X-Rate-Limit-Retry-After-Seconds`, then the body's
 * `retryAfterSeconds`; 30 when none does (what a client assumes then).
 */
export function advertisedWaitSeconds(headers: Headers, body: string, nowMs: number): number {
  for (const name of ['retry-after', 'x-rate-limit-retry-after-seconds']) {
    const text = headers.get(name);
    const value = Number(text ?? Number.NaN);
    if (Number.isFinite(value) && value >= 0) return value;
    const dateMs = name === 'retry-after' && text !== null && /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isFinite(dateMs)) return Math.max(0, dateMs - nowMs) / 1000;
  }
  try {
    const seconds = (JSON.parse(body) as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof seconds === 'number' && seconds >= 0) return seconds;
  } catch {
    // Not JSON: no wait in the body.
  }
  return 30;
}
