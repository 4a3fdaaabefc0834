import type { z } from 'zod';

/** The endpoints of the contract (1-12) and the reference service's extensions. */
export type EndpointName =
  | 'previewPunishment'
  | 'recentPunishments'
  | 'punishmentTypes'
  | 'createPunishment'
  | 'createPunishmentDynamic'
  | 'addEvidence'
  | 'acknowledgePunishment'
  | 'acknowledgeNotifications'
  | 'getTicket'
  | 'getPlayerTickets'
  | 'uploadMigration'
  | 'migrationProgress'
  | 'registerPlayer'
  | 'playerLogin'
  | 'pardonPunishment'
  | 'linkedAccounts'
  | 'stream';

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
} as const satisfies Record<ApiErrorKind, string>;

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

export function isAuthFailure(error: unknown): boolean {
  return isApiError(error) && error.kind === 'http' && error.status === 401;
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
