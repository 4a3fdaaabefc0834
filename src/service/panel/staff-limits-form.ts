import { z } from 'zod';
import { parseDurationText } from './duration-text.js';

/** A longest length as typed: empty or `permanent` is no limit (null), else ms. */
const longestLength = z
  .string()
  .optional()
  .transform((text, ctx) => {
    try {
      const ms = parseDurationText(text ?? '');
      return ms === undefined || ms < 0 ? null : ms;
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  })
  .refine((ms) => ms === null || ms > 0, 'must be longer than nothing: leave it empty for no limit');

const optionalCount = (max: number, what: string) =>
  z
    .string()
    .optional()
    .transform((text) => (text === undefined ? '' : text.trim()))
    .refine((text) => text === '' || /^\d{1,7}$/.test(text), `must be a whole number of ${what}, or empty`)
    .transform((text) => (text === '' ? null : Number(text)))
    .refine((value) => value === null || value <= max, `must be at most ${max}`);

/** The limits of one role as the staff limits page posts them. */
export const roleLimitsForm = z.object({
  banMax: longestLength,
  muteMax: longestLength,
  hourlyMax: optionalCount(100_000, 'punishments').refine(
    (value) => value === null || value >= 1,
    'must be at least 1, or empty for no limit',
  ),
});
