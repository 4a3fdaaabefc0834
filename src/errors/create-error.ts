import type { ErrorCode } from './registry.js';

/** An error with a stable code of the registry. */
export interface CodedError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
}

type ErrorBase = new (message?: string, options?: { cause?: unknown }) => Error;

/**
 * An error class with a registered `code` and its own `name` (`cause` is chained as usual):
 * `class SeedError extends createError('BAILIFF_SERVICE_SEED', 'SeedError') {}`.
 * @param Base what it extends. @default Error
 */
export function createError<C extends ErrorCode>(code: C, name: string, Base: ErrorBase = Error) {
  return class extends Base implements CodedError<C> {
    readonly code: C = code;
    constructor(message: string, options?: { cause?: unknown }) {
      super(message, options);
      this.name = name;
    }
  };
}

/** Whether a value carries one of the registry's codes (by code, so a bundled copy of a class still matches). */
export function hasErrorCode<C extends ErrorCode>(error: unknown, code: C): error is CodedError<C> {
  return (error as { code?: unknown } | null)?.code === code;
}
