import type { Timers } from '../../ports/timers.js';
import { parseRetryAfterMs } from '../../retry/retry-after.js';
import { type DestinationPolicy, DestinationRefused, literalDestinationProblem } from './destination.js';
import type { AttemptResult } from './retry-schedule.js';
import { withoutWebhookUrl } from './webhook-url.js';

/** The `fetch` deliveries use; injected so tests and benches can stand in for the network. */
export type WebhookFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Longest response excerpt kept in the delivery log. */
export const MAX_EXCERPT_LENGTH = 300;
// More than the excerpt needs is never read from a receiver.
const MAX_READ_BYTES = 8192;

export interface SendRequest {
  url: string;
  body: string;
  deliveryId: string;
  event: string;
}

export interface SendContext {
  fetch: WebhookFetch;
  timers: Timers;
  nowMs: () => number;
  timeoutMs: number;
  /** Aborted when the service closes: the attempt is then left unanswered, to be sent again after a restart. */
  closing: AbortSignal;
  /** Where webhooks may go; a refused destination is a permanent failure. */
  destinations: DestinationPolicy;
}

/**
 * An attempt's result, or `aborted` when the service closed during it. `excerpt` is what the delivery
 * log keeps (the start of the receiver's answer, or the problem); `problem` is set when there was no
 * answer: the destination was refused, the connection failed or timed out.
 */
export type SendOutcome = (AttemptResult & { excerpt: string; problem?: string }) | { kind: 'aborted' };

function refused(problem: string, url: string): SendOutcome {
  const text = excerptOf(`destination refused: ${problem}`, url);
  return { kind: 'refused', statusCode: null, excerpt: text, problem: text };
}

/** The refusal of the destination behind a failed request, if that is why it failed. */
function refusalOf(error: unknown): DestinationRefused | undefined {
  if (error instanceof DestinationRefused) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof DestinationRefused ? cause : undefined;
}

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8', 0, Math.min(size, MAX_READ_BYTES));
}

/** Discord answers a 429 with JSON `retry_after` in seconds (a float). */
function discordRetryAfterMs(text: string): number | undefined {
  try {
    const seconds = (JSON.parse(text) as { retry_after?: unknown }).retry_after;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? Math.ceil(seconds * 1000)
      : undefined;
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The longer of the receiver's two ways of asking for a wait, undefined when it gave neither. */
function retryAfterOf(response: Response, text: string, nowMs: number): number | undefined {
  const fromHeaders = parseRetryAfterMs(response.headers, parseJson(text), nowMs);
  const fromDiscord = discordRetryAfterMs(text);
  if (fromHeaders === undefined) return fromDiscord;
  return Math.max(fromHeaders, fromDiscord ?? 0);
}

function excerptOf(text: string, url: string): string {
  const clean = withoutWebhookUrl(text, url).replace(/\s+/g, ' ').trim();
  return clean.length <= MAX_EXCERPT_LENGTH ? clean : `${clean.slice(0, MAX_EXCERPT_LENGTH - 1)}…`;
}

/** One POST of a delivery; never throws. */
export async function sendOnce(request: SendRequest, context: SendContext): Promise<SendOutcome> {
  if (context.closing.aborted) return { kind: 'aborted' };
  const literal = literalDestinationProblem(request.url, context.destinations);
  if (literal !== undefined) return refused(literal, request.url);
  const attempt = new AbortController();
  const onClose = () => attempt.abort();
  context.closing.addEventListener('abort', onClose);
  const timer = context.timers.setTimeout(() => attempt.abort(), context.timeoutMs);
  try {
    const response = await context.fetch(request.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Bailiff-Webhooks',
        'x-bailiff-delivery': request.deliveryId,
        'x-bailiff-event': request.event,
      },
      body: request.body,
      redirect: 'manual',
      signal: attempt.signal,
    });
    const text = await readExcerpt(response);
    const excerpt = excerptOf(text, request.url);
    const statusCode = response.status;
    if (statusCode >= 200 && statusCode < 300) return { kind: 'delivered', statusCode, excerpt };
    if (statusCode === 429 || statusCode >= 500) {
      const retryAfterMs = retryAfterOf(response, text, context.nowMs());
      return { kind: 'retryable', statusCode, excerpt, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    return { kind: 'refused', statusCode, excerpt };
  } catch (error) {
    if (context.closing.aborted) return { kind: 'aborted' };
    const refusal = refusalOf(error);
    if (refusal) return refused(refusal.message, request.url);
    const timedOut = attempt.signal.aborted;
    const failed = error as { code?: unknown; cause?: { code?: unknown } } | null;
    const code = typeof failed?.code === 'string' ? failed.code : failed?.cause?.code;
    const problem = timedOut
      ? `no answer within ${context.timeoutMs} ms`
      : `network error${typeof code === 'string' ? ` (${code})` : ''}`;
    const text = excerptOf(problem, request.url);
    return { kind: 'retryable', statusCode: null, excerpt: text, problem: text };
  } finally {
    context.timers.clearTimeout(timer);
    context.closing.removeEventListener('abort', onClose);
  }
}
