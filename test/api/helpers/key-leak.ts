import { expect } from 'vitest';
import { ApiError, type ApiErrorKind } from '../../../src/api/errors.js';

/** Distinctive enough that any appearance in text is a leak. */
export const SECRET_KEY = 'bk_live_SECRET-7f3c9d2e4b1a';

/** Every piece of text an error could show: message, String(), JSON, stack, the whole cause chain. */
export function everyTextOf(error: unknown): string[] {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current !== undefined; depth++) {
    texts.push(String(current));
    if (current instanceof Error) {
      texts.push(current.message, current.stack ?? '');
      texts.push(JSON.stringify(current));
      current = current.cause;
    } else {
      texts.push(JSON.stringify(current) ?? '');
      current = undefined;
    }
  }
  return texts;
}

export function expectNoKey(error: unknown): void {
  for (const text of everyTextOf(error)) expect(text).not.toContain(SECRET_KEY);
}

/** Awaits a call expected to fail with an ApiError of `kind`, checks it holds no key, returns it. */
export async function expectApiError(call: Promise<unknown>, kind: ApiErrorKind): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, 'the call should have failed').toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect({ kind: apiError.kind, message: apiError.message }).toMatchObject({ kind });
  expectNoKey(apiError);
  return apiError;
}
