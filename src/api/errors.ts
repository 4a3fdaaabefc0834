import type { z } from 'zod';
import type { OperationName } from '../contract/endpoints.js';
import type { ErrorCodeOf } from '../errors/registry.js';

/** The operations of the endpoint table, and the stream (a WebSocket, not a call). */
export type EndpointName = OperationName | 'stream';

/** Why the rate-limit gate held a request back: a 429's wait, or a key the service rejected. */
export type GateReason = 'rate-limited' | 'key-rejected';

/**
 * What went wrong with a call, in one word:
 * - `invalid_request`: our own request failed validation and was never sent;
 * - `network`: no HTTP answer (refused, reset, DNS);
 * - `timeout`: no answer within the call's time limit;
 * - `rate_limited`: 429, with `retryAfterMs` when the service said how long to wait;
 * - `http`: any other non-2xx status, with the body's message;
 * - `invalid_response`: a 2xx whose body does not match the contract.
 */
export type ApiErrorKind = 'invalid_request' | 'network' | 'timeout' | 'rate_limited' | 'http' | 'invalid_response';

export const API_ERROR_CODES = {
  invalid_request: 'BAILIFF_API_INVALID_REQUEST',
  network: 'BAILIFF_API_NETWORK',
  timeout: 'BAILIFF_API_TIMEOUT',
  rate_limited: 'BAILIFF_API_RATE_LIMITED',
  http: 'BAILIFF_API_HTTP',
  invalid_response: 'BAILIFF_API_INVALID_RESPONSE',
} as const satisfies Record<ApiErrorKind, ErrorCodeOf<'api'>>;

export type ApiErrorCode = (typeof API_ERROR_CODES)[ApiErrorKind];

/** A zod issue reduced to what a person needs: where and what. */
export interface ApiIssue {
  path: string;
  message: string;
}

export interface ApiErrorDetails {
  kind: ApiErrorKind;
  endpoint: EndpointName;
  message: string;
  status?: number;
  retryAfterMs?: number;
  /** The service's own `message` from an error body. */
  serviceMessage?: string;
  issues?: ApiIssue[];
  /** A short, truncated excerpt of the offending payload. */
  excerpt?: string;
  /** Set when the request never left: the rate-limit gate was closed for this reason. */
  gated?: GateReason;
  cause?: unknown;
}

/**
 * Every failure of the API client. A value with a stable `kind` and `code`; it never
 * carries the API key (the client builds messages only from endpoint names, statuses and bodies).
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: ApiErrorCode;
  readonly endpoint: EndpointName;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly issues: ApiIssue[] | undefined;
  readonly excerpt: string | undefined;
  readonly gated: GateReason | undefined;

  constructor(details: ApiErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ApiError';
    this.kind = details.kind;
    this.code = API_ERROR_CODES[details.kind];
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.serviceMessage = details.serviceMessage;
    this.issues = details.issues;
    this.excerpt = details.excerpt;
    this.gated = details.gated;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      code: this.code,
      endpoint: this.endpoint,
      message: this.message,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      serviceMessage: this.serviceMessage,
      issues: this.issues,
      excerpt: this.excerpt,
      gated: this.gated,
    };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function isRateLimited(error: unknown): error is ApiError & { kind: 'rate_limited' } {
  return isApiError(error) && error.kind === 'rate_limited';
}

/** True for failures worth retrying later: no answer, a timeout, 429 or 5xx. */
export function isTransient(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'rate_limited') return true;
  return error.kind === 'http' && error.status !== undefined && error.status >= 500;
}

/** A 401, or a request the gate held back because the service rejected the key. */
export function isAuthFailure(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return (error.kind === 'http' && error.status === 401) || error.gated === 'key-rejected';
}

/**
 * A failure after which the service may have acted on the request: no answer (timeout, connection
 * lost) or a 5xx. A gated request, a 429 and a refused connection never reached it.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (!isApiError(error) || error.gated !== undefined) return false;
  if (error.kind === 'timeout') return true;
  if (error.kind === 'network') return !isConnectionRefused(error);
  return error.kind === 'http' && error.status !== undefined && error.status >= 500;
}

function isConnectionRefused(error: ApiError): boolean {
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth += 1) {
    if ((cause as NodeJS.ErrnoException).code === 'ECONNREFUSED') return true;
    cause = cause.cause;
  }
  return false;
}

export function toIssues(error: z.ZodError): ApiIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
}

/** `field: problem; other: problem` for messages shown to people. */
export function describeIssues(issues: readonly ApiIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
}

const EXCERPT_LIMIT = 200;

export function excerptOf(payload: string): string {
  return payload.length <= EXCERPT_LIMIT ? payload : `${payload.slice(0, EXCERPT_LIMIT)}... (${payload.length} chars)`;
}
