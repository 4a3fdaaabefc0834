import { z } from 'zod';
import { normalizeAppealCode } from '../../appeals/appeal-code-text.js';

/** Shortest and longest appeal text a player may send. */
export const MIN_APPEAL_LENGTH = 20;
export const MAX_APPEAL_LENGTH = 4000;
/** Longest answer staff may give. */
export const MAX_ANSWER_LENGTH = 4000;
/** Longest player name an appeal takes. */
export const MAX_APPEAL_NAME_LENGTH = 64;

/** The appeal form as the browser posts it: the code is given back in its one stored form. */
export const appealForm = z.object({
  code: z
    .string()
    .trim()
    .max(64, 'must be the appeal code from your ban screen or /appeal, like 7KQ2M-XW9DC')
    .transform((typed, ctx) => {
      const code = normalizeAppealCode(typed);
      if (code === undefined) {
        ctx.addIssue({
          code: 'custom',
          message:
            typed === ''
              ? 'must not be empty: get your appeal code from the ban screen, or with /appeal in game'
              : 'must be the appeal code from your ban screen or /appeal, like 7KQ2M-XW9DC',
        });
        return z.NEVER;
      }
      return code;
    }),
  playerName: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_APPEAL_NAME_LENGTH, `must be at most ${MAX_APPEAL_NAME_LENGTH} characters`),
  message: z
    .string()
    .trim()
    .min(MIN_APPEAL_LENGTH, `must be at least ${MIN_APPEAL_LENGTH} characters`)
    .max(MAX_APPEAL_LENGTH, `must be at most ${MAX_APPEAL_LENGTH} characters`),
});
export type AppealForm = z.output<typeof appealForm>;

/** A staff decision on an appeal. */
export const appealDecision = z.object({
  decision: z.enum(['accept', 'deny']),
  answer: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_ANSWER_LENGTH, `must be at most ${MAX_ANSWER_LENGTH} characters`),
});
