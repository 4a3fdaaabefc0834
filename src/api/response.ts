import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import type { EndpointSpec } from '../contract/endpoints.js';
import { errorBody } from '../contract/schemas.js';
import { errorMessage } from '../errors/error-message.js';
import { parseRetryAfterMs } from '../retry/retry-after.js';
import { ApiError, describeIssues, excerptOf, toIssues } from './errors.js';
import type { RawReply } from './http.js';

type JsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

function parseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

/** `HTTP 500 Internal Server Error`, with the standard phrase when the answer left it out. */
function statusLine(reply: RawReply): string {
  const phrase = reply.statusText || STATUS_CODES[reply.status] || 'Unknown Status';
  return `HTTP ${reply.status} ${phrase}`;
}

function failedStatus(spec: EndpointSpec, reply: RawReply, nowMs: number): ApiError {
  const parsed = parseJson(reply.text);
  const body = parsed.ok ? errorBody.safeParse(parsed.value) : undefined;
  const serviceMessage = body?.success && body.data.message !== '' ? body.data.message : undefined;
  const excerpt = reply.text.trim() === '' ? undefined : excerptOf(reply.text);
  const suffix = serviceMessage === undefined ? '' : `: ${serviceMessage}`;
  const base = { endpoint: spec.name, status: reply.status, serviceMessage, excerpt };
  if (reply.status === 429) {
    const retryAfterMs = parseRetryAfterMs(reply.headers, parsed.ok ? parsed.value : undefined, nowMs);
    const wait = retryAfterMs === undefined ? '' : ` (retry after ${retryAfterMs} ms)`;
    return new ApiError({
      ...base,
      kind: 'rate_limited',
      retryAfterMs,
      message: `${spec.name}: ${statusLine(reply)}${suffix}${wait}`,
    });
  }
  // A 503 (say, the service's database is unreachable) may say when to come back.
  const retryAfterMs = reply.status >= 500 ? parseRetryAfterMs(reply.headers, undefined, nowMs) : undefined;
  const wait = retryAfterMs === undefined ? '' : ` (retry after ${retryAfterMs} ms)`;
  return new ApiError({
    ...base,
    kind: 'http',
    retryAfterMs,
    message: `${spec.name}: ${statusLine(reply)}${suffix}${wait}`,
  });
}

function invalidResponse(spec: EndpointSpec, reply: RawReply, problem: string, issues?: ApiError['issues']) {
  return new ApiError({
    kind: 'invalid_response',
    endpoint: spec.name,
    status: reply.status,
    issues,
    excerpt: excerptOf(reply.text),
    message: `${spec.name}: ${statusLine(reply)}: ${problem}`,
  });
}

/**
 * The value of a 2xx answer, checked against the endpoint's response schema (unknown extra
 * fields kept). Throws `rate_limited` for 429, `http` for any other non-2xx status (a 5xx with
 * the `Retry-After` it gave as `retryAfterMs`), and
 * `invalid_response` for malformed JSON or a body that breaks the contract.
 */
export function interpretReply(spec: EndpointSpec, reply: RawReply, nowMs: number): unknown {
  if (reply.status < 200 || reply.status > 299) throw failedStatus(spec, reply, nowMs);
  const schema: z.ZodType | null = spec.response;
  if (schema === null) {
    // Success is an empty body; a service that answers with JSON anyway is fine too.
    if (reply.text.trim() === '') return undefined;
    const parsed = parseJson(reply.text);
    if (!parsed.ok) throw invalidResponse(spec, reply, `malformed JSON: ${parsed.reason}`);
    return undefined;
  }
  const parsed = parseJson(reply.text);
  if (!parsed.ok) throw invalidResponse(spec, reply, `malformed JSON: ${parsed.reason}`);
  const result = schema.safeParse(parsed.value);
  if (!result.success) {
    const issues = toIssues(result.error);
    throw invalidResponse(spec, reply, `response breaks the contract: ${describeIssues(issues)}`, issues);
  }
  return result.data;
}
