import { z } from 'zod';

/** The range a JavaScript Date holds: ±100,000,000 days around 1970 (ECMA-262, Time Values). */
export const MAX_DATE_MS = 8_640_000_000_000_000;
export const MIN_DATE_MS = -MAX_DATE_MS;

export const isDateMs = (ms: number): boolean => Number.isInteger(ms) && ms >= MIN_DATE_MS && ms <= MAX_DATE_MS;

/** A stored epoch-ms value that cannot be shown as a date (written by an older version). */
export class UnrenderableDateError extends RangeError {
  constructor(
    readonly field: string,
    readonly storedValue: unknown,
  ) {
    super(`${field}: stored value ${String(storedValue)} is outside the range of a date`);
    this.name = 'UnrenderableDateError';
  }
}

/** Epoch ms as ISO 8601; throws {@link UnrenderableDateError} naming `field` when no Date holds it. */
export function toIso(ms: number, field = 'date'): string {
  if (!isDateMs(ms)) throw new UnrenderableDateError(field, ms);
  return new Date(ms).toISOString();
}

/** Refuses a date before it is stored: every write path calls this, so no row holds an unrenderable date. */
export function checkDateMs(ms: number, field: string): number {
  if (!isDateMs(ms)) throw new RangeError(`${field}: ${String(ms)} is outside the range of a date`);
  return ms;
}

/** Epoch milliseconds within the range of a Date. */
export const epochMs = z
  .number()
  .int('must be an integer number of epoch milliseconds')
  .min(MIN_DATE_MS, `must be between ${MIN_DATE_MS} and ${MAX_DATE_MS} (the range of a date)`)
  .max(MAX_DATE_MS, `must be between ${MIN_DATE_MS} and ${MAX_DATE_MS} (the range of a date)`);
