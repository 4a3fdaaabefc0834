import { ApiError } from './errors.js';

/** What replaces the API key wherever it would otherwise show. */
export const REDACTED = '[redacted]';

const MAX_CAUSE_DEPTH = 8;

export function redactText(text: string, secret: string): string;
export function redactText(text: string | undefined, secret: string): string | undefined;
export function redactText(text: string | undefined, secret: string): string | undefined {
  return text === undefined ? undefined : text.replaceAll(secret, REDACTED);
}

function textOf(value: unknown): string {
  if (value instanceof Error) return `${value.name} ${value.message} ${value.stack ?? ''}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function causeMentions(cause: unknown, secret: string, depth = 0): boolean {
  if (cause === undefined || depth >= MAX_CAUSE_DEPTH) return false;
  if (textOf(cause).includes(secret)) return true;
  return cause instanceof Error && causeMentions(cause.cause, secret, depth + 1);
}

/** A copy of a cause chain with the secret removed; the original is kept when it never mentions it. */
export function redactCause(cause: unknown, secret: string, depth = 0): unknown {
  if (!causeMentions(cause, secret, depth)) return cause;
  if (!(cause instanceof Error)) return redactText(textOf(cause), secret);
  const copy = new Error(redactText(cause.message, secret), {
    cause: depth + 1 < MAX_CAUSE_DEPTH ? redactCause(cause.cause, secret, depth + 1) : undefined,
  });
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code: redactText(code, secret) });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/**
 * The single choke point that keeps the API key out of every error the client throws:
 * a service may echo it back in a message, and a custom fetch may put it in a rejection.
 */
export function redactApiError(error: ApiError, secret: string): ApiError {
  const fields = [error.message, error.serviceMessage ?? '', error.excerpt ?? '', JSON.stringify(error.issues ?? [])];
  if (!fields.some((field) => field.includes(secret)) && !causeMentions(error.cause, secret)) return error;
  return new ApiError({
    kind: error.kind,
    endpoint: error.endpoint,
    message: redactText(error.message, secret),
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    gated: error.gated,
    serviceMessage: redactText(error.serviceMessage, secret),
    issues: error.issues?.map((issue) => ({
      path: redactText(issue.path, secret),
      message: redactText(issue.message, secret),
    })),
    excerpt: redactText(error.excerpt, secret),
    cause: redactCause(error.cause, secret),
  });
}
