import type { z } from 'zod';

/** Field name → message, shown next to each field of a re-rendered form. */
export type FieldErrors = Record<string, string>;

/** The first problem of each field of a failed form parse. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A form body as posted (urlencoded): every value a string, repeated fields as arrays. */
export const formBody = (body: unknown): Record<string, unknown> =>
  body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
